import DCJOSE
import DCJSON
import Foundation
import Testing

@Suite("JWT claims")
struct JWTClaimsTests {
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  @Test("Registered claims are typed; aud may be a string or an array")
  func accessors() throws {
    let claims = try JWTClaims(
      payload: Array(
        #"{"iss":"https://issuer","sub":"s","aud":"a","exp":1700000600,"nbf":1699999990,"iat":1699999999.5,"nonce":"n","x":{"y":1}}"#
          .utf8))
    #expect(claims.iss == "https://issuer")
    #expect(claims.sub == "s")
    #expect(claims.aud == ["a"])
    #expect(claims.exp == Date(timeIntervalSince1970: 1_700_000_600))
    #expect(claims.iat == Date(timeIntervalSince1970: 1_699_999_999.5))
    #expect(claims.nonce == "n")
    #expect(claims["x"]?["y"]?.int == 1)
    #expect(try JWTClaims(json: ["aud": ["a", "b"]]).aud == ["a", "b"])
    try claims.validateTimes(now: now, leeway: 0)
    expectJOSEError(.missingClaim) { try claims.require("jti") }
    #expect(try claims.require("nonce") == "n")
  }

  @Test("Mistyped registered claims are refused")
  func mistyped() {
    expectJOSEError(.invalidClaim) { try JWTClaims(json: ["exp": "tomorrow"]) }
    expectJOSEError(.invalidClaim) { try JWTClaims(json: ["aud": ["a", 1]]) }
    expectJOSEError(.invalidClaim) { try JWTClaims(json: ["iss": 5]) }
    expectJOSEError(.invalidClaim) { try JWTClaims(json: ["a", "b"]) }
    expectJOSEError(.invalidClaim) { try JWTClaims(payload: Array("{".utf8)) }
  }

  @Test("exp in the past is expired unless within leeway")
  func expired() throws {
    let claims = try JWTClaims(json: ["exp": .integer(1_700_000_000 - 30)])
    expectJOSEError(.expired) { try claims.validateTimes(now: now, leeway: 0) }
    expectJOSEError(.expired) { try claims.validateTimes(now: now, leeway: 30) }
    try claims.validateTimes(now: now, leeway: 60)
    // RFC 7519 §4.1.4: the current time must be before exp, so exp == now has expired.
    expectJOSEError(.expired) {
      try JWTClaims(json: ["exp": 1_700_000_000]).validateTimes(now: now)
    }
  }

  @Test("nbf or iat in the future is not yet valid unless within leeway")
  func notYetValid() throws {
    let nbf = try JWTClaims(json: ["nbf": .integer(1_700_000_000 + 30)])
    expectJOSEError(.notYetValid) { try nbf.validateTimes(now: now, leeway: 10) }
    try nbf.validateTimes(now: now, leeway: 30)
    let iat = try JWTClaims(json: ["iat": .integer(1_700_000_000 + 120)])
    expectJOSEError(.notYetValid) { try iat.validateTimes(now: now, leeway: 60) }
    try iat.validateTimes(now: now, leeway: 120)
  }

  @Test("The RFC 7515 A.3 payload is expired now and valid just before its exp")
  func rfc7515Claims() throws {
    let vector = try #require(try loadVector("jose-rfc-vectors")["rfc7515_a3"])
    let jws = try CompactJWS(try #require(vector["compact"]?.string))
    let claims = try JWTClaims(payload: jws.payload)
    #expect(claims.iss == "joe")
    #expect(claims["http://example.com/is_root"] == true)
    try claims.validateTimes(now: Date(timeIntervalSince1970: 1_300_819_300), leeway: 0)
    expectJOSEError(.expired) { try claims.validateTimes(now: now, leeway: 300) }
  }
}
