import DCJSON
import DCQL
import Foundation
import Testing

/// Published vectors: the OpenID4VP 1.0 example queries, the §7.1 pointer example, axle's matching cases.
@Suite struct VectorTests {
  static let exampleNames = [
    "claims_alternatives", "complex_mdoc", "credentials_alternatives", "multi_credentials",
    "simple", "simple_mdoc", "value_matching_simple",
  ]

  @Test func everyExampleIsInTheFile() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let queries = try #require(file["queries"]?.object)
    #expect(Set(queries.map(\.key)) == Set(Self.exampleNames))
  }

  @Test(arguments: exampleNames)
  func specExampleParses(name: String) throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let json = try #require(file["queries"]?[name])
    let parsed = try DCQLQuery(json)
    let raw = try #require(json["credentials"]?.array)
    #expect(parsed.credentials.count == raw.count)
    #expect(parsed.credentials.allSatisfy { $0.format == "mso_mdoc" || $0.format == "dc+sd-jwt" })
  }

  @Test func specExampleDetails() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let queries = try #require(file["queries"])

    let alternatives = try DCQLQuery(try #require(queries["claims_alternatives"]))
    #expect(alternatives.credentials[0].claimSets == [["a", "c", "d", "e"], ["a", "b", "e"]])
    #expect(
      alternatives.credentials[0].meta.vctValues == [
        "https://credentials.example.com/identity_credential"
      ])

    let mdoc = try DCQLQuery(try #require(queries["complex_mdoc"]))
    #expect(mdoc.credentials[0].meta.doctypeValue == "org.iso.18013.5.1.mDL")
    #expect(mdoc.credentials[0].multiple == false)
    #expect(mdoc.credentials[0].requireCryptographicHolderBinding)
    let sets = try #require(mdoc.credentialSets)
    #expect(sets.map(\.required) == [true, false])
    #expect(sets[1].options == [["mdl-address"], ["photo_card-address"]])
    #expect(
      try mdoc.credentials[0].claims?[0].path
        == ClaimsPathPointer([.key("org.iso.18013.5.1"), .key("given_name")]))

    let values = try DCQLQuery(try #require(queries["value_matching_simple"]))
    #expect(values.credentials[0].claims?[3].values == [.string("90210"), .string("90211")])
  }

  @Test func claimsPathPointerExample() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let example = try #require(file["claims_path_pointer_example"])
    let credential = ClaimValue(try #require(example["credential"]))
    let cases = try #require(example["cases"]?.array)
    #expect(cases.count == 5)
    for entry in cases {
      let path = try ClaimsPathPointer(json: ClaimValue(try #require(entry["path"])))
      let expected = ClaimValue(try #require(entry["selected"]))
      let selected = path.select(in: credential)
      #expect(ClaimValue.array(selected.map(\.value)) == expected, "path \(path)")
    }
  }

  @Test func claimsPathPointerExampleConcretePaths() throws {
    let file = try loadVector("dcql-openid4vp-1.0-examples")
    let example = try #require(file["claims_path_pointer_example"])
    let credential = ClaimValue(try #require(example["credential"]))
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
    let cases = try #require(file["cases"]?.array)
    return try cases.map { entry in
      let expected = try #require(entry["expected"])
      return MatchingCase(
        name: try #require(entry["name"]?.string),
        query: ClaimValue(try #require(entry["query"])),
        satisfiable: try #require(expected["satisfiable"]?.bool as Bool?),
        disclosedPaths: try #require(expected["disclosedPaths"]?.array).map { path in
          try #require(path.array).map { try #require($0.string) }
        })
    }
  }

  static func matchingCredential() throws -> DCQLCredentialDescription {
    let file = try loadVector("dcql-matching")
    let credential = try #require(file["credential"])
    return DCQLCredentialDescription(
      format: try #require(credential["format"]?.string),
      vct: credential["vct"]?.string,
      claims: ClaimValue(try #require(credential["claims"])))
  }

  @Test func matchingFileHasSevenCases() throws {
    #expect(try Self.matchingCases().count == 7)
  }

  /// Five of axle's cases omit `meta`, which OpenID4VP 1.0 §6.1 makes REQUIRED: such a query
  /// matches nothing here (as in CMWallet's matcher). The case's expectation is checked with
  /// the `meta` the credential answers (`vct_values: [its vct]`) added.
  @Test(arguments: try matchingCases())
  func matchingCase(_ vector: MatchingCase) throws {
    var json = vector.query
    if case .object(var root) = json, case .array(var credentials)? = root["credentials"],
      case .object(var first)? = credentials.first, first["meta"] == nil
    {
      #expect(!(try DCQLQuery(json).evaluate([try Self.matchingCredential()]).isSatisfied))
      let vct = try #require(try Self.matchingCredential().vct)
      first["meta"] = .object(["vct_values": .array([.string(vct)])])
      credentials[0] = .object(first)
      root["credentials"] = .array(credentials)
      json = .object(root)
    }
    let query = try DCQLQuery(json)
    let evaluation = query.evaluate([try Self.matchingCredential()])
    #expect(evaluation.isSatisfied == vector.satisfiable)
    let match = try #require(evaluation.matches["q"])
    #expect(match.candidates.isEmpty == !vector.satisfiable)
    let disclosed = match.candidates.first?.disclosed.map(\.stringComponents) ?? []
    #expect(disclosed == vector.disclosedPaths)
    if !vector.satisfiable { #expect(evaluation.unsatisfiedReason != nil) }
  }
}
