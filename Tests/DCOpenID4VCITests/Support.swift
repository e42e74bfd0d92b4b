import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCOpenID4VCI
import DCOpenID4VCITestSupport
import DCTestSupport
import Foundation
import Testing

/// Loads a vector file shipped in this target's `Vectors` folder.
func loadVector(_ name: String) throws -> JSONValue {
  try JSONValue(parsing: VectorFile.bytes(name, in: .module))
}
