import DCEncoding
package import DCJSON

/// The JSON header of a compact JWS or JWT.
package func decodeHeader(_ compact: String) throws -> JSONValue {
  try JSONValue(parsing: Base64URL.decode(String(compact.split(separator: ".")[0])))
}

/// The JSON claims (payload) of a compact JWS or JWT.
package func decodeClaims(_ compact: String) throws -> JSONValue {
  try JSONValue(parsing: Base64URL.decode(String(compact.split(separator: ".")[1])))
}
