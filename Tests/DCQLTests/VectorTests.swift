import DCQL
import Foundation
import JSON
import Testing

/// Published vectors: the OpenID4VP 1.0 example queries, the §7.1 pointer example, axle's matching cases.
@Suite struct VectorTests {
  static let exampleNames = [
    "claims_alternatives", "complex_mdoc", "credentials_alternatives", "multi_credentials",
    "simple", "simple_mdoc", "value_matching_simple",
  ]

  @Test func everyExampleIsInTheFile() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let queries = try #require(file["queries"] as? [String: Any])
    #expect(Set(queries.keys) == Set(Self.exampleNames))
  }

  @Test(arguments: exampleNames)
  func specExampleParses(name: String) throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let json = try #require((file["queries"] as? [String: Any])?[name])
    let parsed = try DCQLQuery(json: json)
    let raw = try #require((json as? [String: Any])?["credentials"] as? [Any])
    #expect(parsed.credentials.count == raw.count)
    #expect(parsed.credentials.allSatisfy { $0.format == "mso_mdoc" || $0.format == "dc+sd-jwt" })
  }

  @Test func specExampleDetails() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let queries = try #require(file["queries"] as? [String: Any])

    let alternatives = try DCQLQuery(json: queries["claims_alternatives"] as Any)
    #expect(alternatives.credentials[0].claimSets == [["a", "c", "d", "e"], ["a", "b", "e"]])
    #expect(
      alternatives.credentials[0].meta.vctValues == [
        "https://credentials.example.com/identity_credential"
      ])

    let mdoc = try DCQLQuery(json: queries["complex_mdoc"] as Any)
    #expect(mdoc.credentials[0].meta.doctypeValue == "org.iso.18013.5.1.mDL")
    #expect(mdoc.credentials[0].multiple == false)
    #expect(mdoc.credentials[0].requireCryptographicHolderBinding)
    let sets = try #require(mdoc.credentialSets)
    #expect(sets.map(\.required) == [true, false])
    #expect(sets[1].options == [["mdl-address"], ["photo_card-address"]])
    #expect(
      try mdoc.credentials[0].claims?[0].path
        == ClaimsPathPointer([.key("org.iso.18013.5.1"), .key("given_name")]))

    let values = try DCQLQuery(json: queries["value_matching_simple"] as Any)
    #expect(values.credentials[0].claims?[3].values == [.string("90210"), .string("90211")])
  }

  @Test func claimsPathPointerExample() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let example = try #require(file["claims_path_pointer_example"] as? [String: Any])
    let credential = try ClaimValue(json: example["credential"] as Any)
    let cases = try #require(example["cases"] as? [[String: Any]])
    #expect(cases.count == 5)
    for entry in cases {
      let path = try ClaimsPathPointer(json: ClaimValue(json: entry["path"] as Any))
      let expected = try ClaimValue(json: entry["selected"] as Any)
      let selected = path.select(in: credential)
      #expect(ClaimValue.array(selected.map(\.value)) == expected, "path \(path)")
    }
  }

  @Test func claimsPathPointerExampleConcretePaths() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let example = try #require(file["claims_path_pointer_example"] as? [String: Any])
    let credential = try ClaimValue(json: example["credential"] as Any)
    let degrees = try ClaimsPathPointer([.key("degrees"), .allElements, .key("type")])
    #expect(
      degrees.select(in: credential).map(\.path) == [
        concrete("degrees", 0, "type"), concrete("degrees", 1, "type"),
      ])
    let nationality = try ClaimsPathPointer([.key("nationalities"), .index(1)])
    #expect(nationality.select(in: credential).map(\.path) == [concrete("nationalities", 1)])
  }

  struct MatchingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let query: ClaimValue
    let satisfiable: Bool
    let disclosedPaths: [[String]]
    var testDescription: String { name }
  }

  static func matchingCases() throws -> [MatchingCase] {
    let file = try loadVector("dcql-matching")
    let cases = try #require(file["cases"] as? [[String: Any]])
    return try cases.map { entry in
      let expected = try #require(entry["expected"] as? [String: Any])
      return MatchingCase(
        name: try #require(entry["name"] as? String),
        query: try ClaimValue(json: entry["query"] as Any),
        satisfiable: try #require(expected["satisfiable"] as? Bool),
        disclosedPaths: try #require(expected["disclosedPaths"] as? [[String]]))
    }
  }

  static func matchingCredential() throws -> DCQLCredentialDescription {
    let file = try loadVector("dcql-matching")
    let credential = try #require(file["credential"] as? [String: Any])
    return DCQLCredentialDescription(
      format: try #require(credential["format"] as? String),
      vct: credential["vct"] as? String,
      claims: try ClaimValue(json: credential["claims"] as Any))
  }

  @Test func matchingFileHasSevenCases() throws {
    #expect(try Self.matchingCases().count == 7)
  }

  @Test(arguments: try matchingCases())
  func matchingCase(_ vector: MatchingCase) throws {
    let query = try DCQLQuery(vector.query)
    let evaluation = query.evaluate([try Self.matchingCredential()])
    #expect(evaluation.isSatisfied == vector.satisfiable)
    let match = try #require(evaluation.matches["q"])
    #expect(match.candidates.isEmpty == !vector.satisfiable)
    let disclosed = match.candidates.first?.disclosed.map(\.stringComponents) ?? []
    #expect(disclosed == vector.disclosedPaths)
    if !vector.satisfiable { #expect(evaluation.unsatisfiedReason != nil) }
  }
}
