import DCJSON
import DCOpenID4VP
import DCQL
import DCVerifier
import Foundation
import Testing

/// The steps of `VerifierState.verifyResponse`, each on its own: values in, values out.
@Suite("Response verification steps")
struct ResponseVerificationStepsTests {
  @Test func vpTokenIsReadAsAnObjectAndAnEncryptedErrorIsReported() throws {
    let token: JSONValue = .object([("q", .array(["presentation"]))])
    let read = try VerifierState.readVPToken(.object([("vp_token", token)]))
    #expect(read.vpToken == token)
    #expect(read.entries.map(\.key) == ["q"])
    do {
      _ = try VerifierState.readVPToken(.object([("error", "access_denied")]))
      Issue.record("an error response must not read as a vp_token")
    } catch {
      #expect(error.code == .errorResponse)
    }
    do {
      _ = try VerifierState.readVPToken(.object([("vp_token", .array([]))]))
      Issue.record("a vp_token array must be refused")
    } catch {
      #expect(error.code == .invalidResponse)
    }
  }

  private func query(sets: Bool) throws -> DCQLQuery {
    var members: [(key: String, value: JSONValue)] = [
      (
        "credentials",
        .array([
          .object([
            ("id", "a"), ("format", "dc+sd-jwt"),
            ("meta", .object([("vct_values", .array(["a"]))])),
          ]),
          .object([
            ("id", "b"), ("format", "dc+sd-jwt"),
            ("meta", .object([("vct_values", .array(["b"]))])),
          ]),
        ])
      )
    ]
    if sets {
      members.append(
        (
          "credential_sets",
          .array([.object([("options", .array([.array(["a"]), .array(["b"])]))])])
        )
      )
    }
    return try DCQLQuery(JSONValue.object(members))
  }

  @Test func aggregationNeedsEveryQueryOrASetOptionAndMatchingPresentations() throws {
    let a = DCQLCredentialDescription.sdJWTVC(vct: "a", claims: .object([:]))
    let b = DCQLCredentialDescription.sdJWTVC(vct: "b", claims: .object([:]))
    // Without credential_sets every Credential Query must be answered (§6.4).
    #expect(
      try VerifierState.aggregate(
        query: query(sets: false), descriptions: [a, b], indicesByID: ["a": [0], "b": [1]])
        == .everyCredentialQueryAnswered)
    #expect(throws: OpenID4VPError.self) {
      try VerifierState.aggregate(
        query: query(sets: false), descriptions: [a], indicesByID: ["a": [0]])
    }
    // With credential_sets, one option of each required set is enough.
    #expect(
      try VerifierState.aggregate(
        query: query(sets: true), descriptions: [a], indicesByID: ["a": [0]])
        == .credentialSetsSatisfied)
    // A presentation that does not meet its own query (vct b answering a) is refused.
    #expect(throws: OpenID4VPError.self) {
      try VerifierState.aggregate(
        query: query(sets: true), descriptions: [b], indicesByID: ["a": [0]])
    }
  }
}
