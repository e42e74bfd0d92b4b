import DCTrust
import Foundation

/// `--registration-cert FILE` on the verifier and issuer commands (issue 29): the relying
/// party's or issuer's registration certificate (ETSI TS 119 475 v1.2.1 clause 5.2), sent as
/// it is, after checking it is one.
enum RegistrationCertificateFile {
  static let option = CommandSpec.Option.value(
    "registration-cert", "FILE",
    "send this registration certificate (ETSI TS 119 475: a rc-wrp+jwt JWT, or a rc-wrp+cwt COSE_Sign1)"
  )

  /// The certificate's bytes when the option is given: a JWT file's text without surrounding
  /// whitespace, or a CWT's bytes; refuses a file that is not a registration certificate.
  static func read(_ args: ParsedArguments) throws -> [UInt8]? {
    guard let path = args.value("registration-cert") else { return nil }
    return try read(path: path)
  }

  static func read(path: String) throws -> [UInt8] {
    var bytes = try Files.read(path, limit: .request)
    // A JWT file may end with a newline; a COSE_Sign1 starts with a CBOR array or tag.
    if let first = bytes.first, first != 0x84, first != 0xD2 {
      let text = String(decoding: bytes, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      bytes = Array(text.utf8)
    }
    do {
      _ = try RegistrationCertificate.checkedForSending(bytes)
    } catch {
      throw CommandFailure(
        "\(path) is not a registration certificate (ETSI TS 119 475): \(error.reason)")
    }
    return bytes
  }
}
