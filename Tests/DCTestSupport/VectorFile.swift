public import Foundation

/// The one loader for the vector files a test target ships in its `Vectors` folder (each folder's
/// SOURCE.md names where a file comes from). Pass the target's `Bundle.module`.
public enum VectorFile {
  /// A vector file that is not in the bundle, or whose top level is not the expected shape.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The bytes of `Vectors/<name>.<ext>` in `bundle`.
  public static func bytes(_ name: String, ext: String = "json", in bundle: Bundle) throws
    -> [UInt8]
  {
    guard let url = bundle.url(forResource: name, withExtension: ext, subdirectory: "Vectors")
    else {
      throw Failure(description: "Vectors/\(name).\(ext) is not in \(bundle.bundlePath)")
    }
    return Array(try Data(contentsOf: url))
  }

  /// The file decoded as `T` with `JSONDecoder` (Wycheproof and RFC 9180 files).
  public static func decode<T: Decodable>(
    _ type: T.Type = T.self, _ name: String, in bundle: Bundle
  ) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(try bytes(name, in: bundle)))
  }

  /// The file as `JSONSerialization` objects, its top level cast to `T`.
  public static func object<T>(
    _ name: String, as type: T.Type = [String: Any].self, in bundle: Bundle
  ) throws -> T {
    let object = try JSONSerialization.jsonObject(with: Data(try bytes(name, in: bundle)))
    guard let typed = object as? T else {
      throw Failure(description: "Vectors/\(name).json's top level is not \(T.self)")
    }
    return typed
  }
}
