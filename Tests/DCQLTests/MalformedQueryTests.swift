import DCJSON
import DCQL
import Foundation
import Testing

/// Every structural rule of OpenID4VP 1.0 §6.1–§6.3 and §7 refuses a query that breaks it, naming where.
@Suite struct MalformedQueryTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let json: String
    let code: DCQLErrorCode
    let location: String
    var testDescription: String { name }
  }

  static let sdjwt = #""format": "dc+sd-jwt""#
  static let mdoc = #""format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}"#

  static let cases: [Case] = [
    Case(name: "root is an array", json: "[]", code: .invalidQuery, location: ""),
    Case(name: "root is a string", json: #""q""#, code: .invalidQuery, location: ""),
    Case(name: "no credentials", json: "{}", code: .invalidQuery, location: "credentials"),
    Case(
      name: "empty credentials", json: #"{"credentials": []}"#, code: .invalidQuery,
      location: "credentials"),
    Case(
      name: "credentials not an array", json: #"{"credentials": {}}"#, code: .invalidQuery,
      location: "credentials"),
    Case(
      name: "credential not an object", json: #"{"credentials": ["a"]}"#, code: .invalidQuery,
      location: "credentials[0]"),
    Case(
      name: "duplicate credential ids",
      json: #"{"credentials": [{"id": "a", \#(sdjwt)}, {"id": "a", \#(sdjwt)}]}"#,
      code: .invalidIdentifier, location: "credentials[1].id"),
    Case(
      name: "id with a space", json: #"{"credentials": [{"id": "a b", \#(sdjwt)}]}"#,
      code: .invalidIdentifier, location: "credentials[0].id"),
    Case(
      name: "id with a dot", json: #"{"credentials": [{"id": "a.b", \#(sdjwt)}]}"#,
      code: .invalidIdentifier, location: "credentials[0].id"),
    Case(
      name: "id with non-ASCII letter", json: #"{"credentials": [{"id": "é", \#(sdjwt)}]}"#,
      code: .invalidIdentifier, location: "credentials[0].id"),
    Case(
      name: "empty id", json: #"{"credentials": [{"id": "", \#(sdjwt)}]}"#,
      code: .invalidIdentifier, location: "credentials[0].id"),
    Case(
      name: "id is a number", json: #"{"credentials": [{"id": 1, \#(sdjwt)}]}"#,
      code: .invalidQuery, location: "credentials[0].id"),
    Case(
      name: "missing format", json: #"{"credentials": [{"id": "a"}]}"#, code: .invalidQuery,
      location: "credentials[0].format"),
    Case(
      name: "multiple is a string",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "multiple": "true"}]}"#,
      code: .invalidQuery, location: "credentials[0].multiple"),
    Case(
      name: "multiple is 1", json: #"{"credentials": [{"id": "a", \#(sdjwt), "multiple": 1}]}"#,
      code: .invalidQuery, location: "credentials[0].multiple"),
    Case(
      name: "holder binding is 0",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "require_cryptographic_holder_binding": 0}]}"#,
      code: .invalidQuery, location: "credentials[0].require_cryptographic_holder_binding"),
    Case(
      name: "meta is an array", json: #"{"credentials": [{"id": "a", \#(sdjwt), "meta": []}]}"#,
      code: .invalidQuery, location: "credentials[0].meta"),
    Case(
      name: "vct_values is a string",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "meta": {"vct_values": "x"}}]}"#,
      code: .invalidValue, location: "credentials[0].meta.vct_values"),
    Case(
      name: "doctype_value is an array",
      json:
        #"{"credentials": [{"id": "a", "format": "mso_mdoc", "meta": {"doctype_value": ["x"]}}]}"#,
      code: .invalidValue, location: "credentials[0].meta.doctype_value"),
    Case(
      name: "empty claims", json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": []}]}"#,
      code: .invalidQuery, location: "credentials[0].claims"),
    Case(
      name: "claim_sets without claims",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claim_sets": [["x"]]}]}"#,
      code: .invalidQuery, location: "credentials[0].claim_sets"),
    Case(
      name: "claim_sets references unknown id",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"id": "x", "path": ["n"]}], "claim_sets": [["x"], ["x", "y"]]}]}"#,
      code: .unknownReference, location: "credentials[0].claim_sets[1][1]"),
    Case(
      name: "claim_sets with a claim lacking id",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"id": "x", "path": ["n"]}, {"path": ["m"]}], "claim_sets": [["x"]]}]}"#,
      code: .invalidQuery, location: "credentials[0].claims[1].id"),
    Case(
      name: "empty claim set",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"id": "x", "path": ["n"]}], "claim_sets": [[]]}]}"#,
      code: .invalidQuery, location: "credentials[0].claim_sets[0]"),
    Case(
      name: "duplicate claim ids",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"id": "x", "path": ["n"]}, {"id": "x", "path": ["m"]}]}]}"#,
      code: .invalidIdentifier, location: "credentials[0].claims[1].id"),
    Case(
      name: "bad claim id",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"id": "x/y", "path": ["n"]}]}]}"#,
      code: .invalidIdentifier, location: "credentials[0].claims[0].id"),
    Case(
      name: "missing path",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"id": "x"}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path"),
    Case(
      name: "empty path",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": []}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path"),
    Case(
      name: "path is a string",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": "n"}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path"),
    Case(
      name: "path with negative index",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n", -1]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path[1]"),
    Case(
      name: "path with a float",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n", 1.5]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path[1]"),
    Case(
      name: "path with 1.0",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n", 1.0]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path[1]"),
    Case(
      name: "path with an object",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n", {}]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path[1]"),
    Case(
      name: "path with a boolean",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": [true]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path[0]"),
    Case(
      name: "mdoc path of one element",
      json:
        #"{"credentials": [{"id": "a", \#(mdoc), "claims": [{"path": ["org.iso.18013.5.1"]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path"),
    Case(
      name: "mdoc path with an index",
      json: #"{"credentials": [{"id": "a", \#(mdoc), "claims": [{"path": ["ns", 0]}]}]}"#,
      code: .invalidPath, location: "credentials[0].claims[0].path"),
    Case(
      name: "values with an object",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n"], "values": [{}]}]}]}"#,
      code: .invalidValue, location: "credentials[0].claims[0].values[0]"),
    Case(
      name: "values with null",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n"], "values": ["x", null]}]}]}"#,
      code: .invalidValue, location: "credentials[0].claims[0].values[1]"),
    Case(
      name: "values with a float",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n"], "values": [1.5]}]}]}"#,
      code: .invalidValue, location: "credentials[0].claims[0].values[0]"),
    Case(
      name: "empty values",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "claims": [{"path": ["n"], "values": []}]}]}"#,
      code: .invalidValue, location: "credentials[0].claims[0].values"),
    Case(
      name: "intent_to_retain is a string",
      json:
        #"{"credentials": [{"id": "a", \#(mdoc), "claims": [{"path": ["ns", "e"], "intent_to_retain": "yes"}]}]}"#,
      code: .invalidQuery, location: "credentials[0].claims[0].intent_to_retain"),
    Case(
      name: "trusted_authorities empty",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "trusted_authorities": []}]}"#,
      code: .invalidQuery, location: "credentials[0].trusted_authorities"),
    Case(
      name: "trusted authority without values",
      json: #"{"credentials": [{"id": "a", \#(sdjwt), "trusted_authorities": [{"type": "aki"}]}]}"#,
      code: .invalidQuery, location: "credentials[0].trusted_authorities[0].values"),
    Case(
      name: "aki padded",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "trusted_authorities": [{"type": "aki", "values": ["AQI="]}]}]}"#,
      code: .invalidValue, location: "credentials[0].trusted_authorities[0].values[0]"),
    Case(
      name: "aki not base64url",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "trusted_authorities": [{"type": "aki", "values": ["AQ+/"]}]}]}"#,
      code: .invalidValue, location: "credentials[0].trusted_authorities[0].values[0]"),
    Case(
      name: "aki of one character",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt), "trusted_authorities": [{"type": "aki", "values": ["QUJD", "A"]}]}]}"#,
      code: .invalidValue, location: "credentials[0].trusted_authorities[0].values[1]"),
    Case(
      name: "empty credential_sets",
      json: #"{"credentials": [{"id": "a", \#(sdjwt)}], "credential_sets": []}"#,
      code: .invalidQuery, location: "credential_sets"),
    Case(
      name: "credential_sets option references unknown id",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt)}], "credential_sets": [{"options": [["a"], ["b"]]}]}"#,
      code: .unknownReference, location: "credential_sets[0].options[1][0]"),
    Case(
      name: "credential_sets without options",
      json: #"{"credentials": [{"id": "a", \#(sdjwt)}], "credential_sets": [{"required": true}]}"#,
      code: .invalidQuery, location: "credential_sets[0].options"),
    Case(
      name: "credential_sets with an empty option",
      json: #"{"credentials": [{"id": "a", \#(sdjwt)}], "credential_sets": [{"options": [[]]}]}"#,
      code: .invalidQuery, location: "credential_sets[0].options[0]"),
    Case(
      name: "required is a string",
      json:
        #"{"credentials": [{"id": "a", \#(sdjwt)}], "credential_sets": [{"options": [["a"]], "required": "false"}]}"#,
      code: .invalidQuery, location: "credential_sets[0].required"),
  ]

  @Test(arguments: cases)
  func refused(_ malformed: Case) throws {
    let error = expectDCQLError(malformed.code) { try query(malformed.json) }
    #expect(error?.location == malformed.location, "\(String(describing: error))")
  }

  @Test func notJSONAtAll() {
    expectDCQLError(.invalidJSON) { try query("{credentials") }
  }

  @Test func descriptionNamesTheLocation() throws {
    let error = expectDCQLError(.invalidIdentifier) {
      try query(#"{"credentials": [{"id": "a", "format": "f"}, {"id": "a", "format": "f"}]}"#)
    }
    #expect(error?.description.contains("credentials[1].id") == true)
  }

  @Test func claimPathRejectsNegativeIndexDirectly() {
    expectDCQLError(.invalidPath) { try ClaimsPathPointer([.key("a"), .index(-1)]) }
    expectDCQLError(.invalidPath) { try ClaimsPathPointer([]) }
  }
}
