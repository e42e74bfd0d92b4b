import DCJSON
import DCQL
import DCTestSupport
import Foundation
import Testing

/// The matching rules of OpenID4VP 1.0 §6.4 and §7, one behaviour per test.
@Suite struct EvaluationTests {
  static let pidMeta = #""format": "dc+sd-jwt", "meta": {"vct_values": ["\#(Wallet.pidVCT)"]}"#
  static let mdlMeta = #""format": "mso_mdoc", "meta": {"doctype_value": "org.iso.18013.5.1.mDL"}"#

  /// The credential indices and disclosed paths of query `q`.
  func matches(_ json: String, _ wallet: [any DCQLCredential] = Wallet.all) throws
    -> [(index: Int, set: Int?, disclosed: [ClaimPath])]
  {
    let result = try query(json).evaluate(wallet)
    return try #require(result.matches["q"]).candidates.map {
      ($0.credentialIndex, $0.claimSetIndex, $0.disclosed)
    }
  }

  // MARK: claim_sets

  @Test func firstSatisfiableClaimSetWinsEvenIfALaterOneDisclosesLess() throws {
    let found = try matches(
      #"""
      {"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [
        {"id": "fn", "path": ["family_name"]}, {"id": "gn", "path": ["given_name"]},
        {"id": "rg", "path": ["region"]}],
        "claim_sets": [["fn", "gn"], ["fn"]]}]}
      """#)
    #expect(found.map(\.index) == [1, 2])
    #expect(found.allSatisfy { $0.set == 0 && $0.disclosed.count == 2 })
  }

  @Test func unmetClaimSetsFallThroughInOrder() throws {
    // pid1 lacks region: set 0 fails, set 1 (family_name, given_name) holds.
    // pid2 has region: set 0 holds.
    let found = try matches(
      #"""
      {"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [
        {"id": "fn", "path": ["family_name"]}, {"id": "gn", "path": ["given_name"]},
        {"id": "rg", "path": ["region"]}],
        "claim_sets": [["rg"], ["fn", "gn"], ["fn"]]}]}
      """#)
    #expect(found.map(\.index) == [1, 2])
    #expect(found.map(\.set) == [1, 0])
    #expect(found[0].disclosed == [concrete("family_name"), concrete("given_name")])
    #expect(found[1].disclosed == [concrete("region")])
  }

  @Test func withoutClaimSetsAllClaimsAreNeeded() throws {
    let found = try matches(
      #"""
      {"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [
        {"path": ["family_name"]}, {"path": ["region"]}]}]}
      """#)
    #expect(found.map(\.index) == [2])
  }

  @Test func repeatedPathsAreDisclosedOnce() throws {
    let found = try matches(
      #"""
      {"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [
        {"path": ["nationalities", null]}, {"path": ["nationalities", 0]}]}]}
      """#)
    #expect(found[0].disclosed == [concrete("nationalities", 0), concrete("nationalities", 1)])
  }

  // MARK: values

  @Test(arguments: [
    // birth_year is the integer 1980 in pid1 and 1990 in pid2.
    (#"["birth_year"]"#, #"[1980]"#, [1]),
    (#"["birth_year"]"#, #"["1980"]"#, []),
    (#"["birth_year"]"#, #"[1990, 1980]"#, [1, 2]),
    (#"["birth_year"]"#, #"[true]"#, []),
    // postal_code is a string.
    (#"["postal_code"]"#, #"["12345"]"#, [2]),
    (#"["postal_code"]"#, #"[12345]"#, []),
    // age_equal_or_over.18 is the boolean true in pid1 only.
    (#"["age_equal_or_over", "18"]"#, #"[true]"#, [1]),
    (#"["age_equal_or_over", "18"]"#, #"[1]"#, []),
    (#"["age_equal_or_over", "18"]"#, #"["true"]"#, []),
    (#"["age_equal_or_over", "65"]"#, #"[false]"#, [1]),
  ])
  func valuesCompareByTypeAndValue(path: String, values: String, expected: [Int]) throws {
    let found = try matches(
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [{"path": \#(path), "values": \#(values)}]}]}"#
    )
    #expect(found.map(\.index) == expected)
  }

  @Test func mdocValues() throws {
    // age_over_18 is true in the mDL; the integer 1 is not true.
    let yes = try matches(
      #"{"credentials": [{"id": "q", \#(Self.mdlMeta), "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"], "values": [true]}]}]}"#
    )
    #expect(yes.map(\.index) == [0])
    let no = try matches(
      #"{"credentials": [{"id": "q", \#(Self.mdlMeta), "claims": [{"path": ["org.iso.18013.5.1", "age_over_18"], "values": [1]}]}]}"#
    )
    #expect(no.isEmpty)
  }

  @Test func valuesOverAWildcardDiscloseOnlyTheMatchingElements() throws {
    // pid1 nationalities ["US", "DE"]: only index 1 equals "DE".
    let found = try matches(
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [{"path": ["nationalities", null], "values": ["DE"]}]}]}"#
    )
    #expect(found.map(\.index) == [1])
    #expect(found[0].disclosed == [concrete("nationalities", 1)])
  }

  @Test func numbersCompareByValueWithIntegers() throws {
    let credential = DCQLCredentialDescription.sdJWTVC(vct: "v", claims: ["n": 2.0, "m": 2.5])
    let two = try query(
      #"{"credentials": [{"id": "q", "format": "dc+sd-jwt", "meta": {}, "claims": [{"path": ["n"], "values": [2]}]}]}"#
    ).evaluate([credential])
    #expect(two.isSatisfied)
    let notTwo = try query(
      #"{"credentials": [{"id": "q", "format": "dc+sd-jwt", "meta": {}, "claims": [{"path": ["m"], "values": [2]}]}]}"#
    ).evaluate([credential])
    #expect(!notTwo.isSatisfied)
  }

  // MARK: claims path pointers

  @Test(
    arguments: [
      (
        #"["nationalities", null]"#,
        [[1, "nationalities", 0], [1, "nationalities", 1], [2, "nationalities", 0]]
      ),
      (#"["nationalities", 0]"#, [[1, "nationalities", 0], [2, "nationalities", 0]]),
      (#"["nationalities", 1]"#, [[1, "nationalities", 1]]),
      (#"["nationalities", 5]"#, []),
      (#"["address", "locality"]"#, [[1, "address", "locality"]]),
      // Type mismatches abort selection (§7.2): no match rather than an error.
      (#"["given_name", 0]"#, []),
      (#"["given_name", null]"#, []),
      (#"["nationalities", "0"]"#, []),
      (#"["address", null]"#, []),
    ] as [(String, [[any Sendable]])])
  func pathSelection(path: String, expected: [[any Sendable]]) throws {
    let found = try matches(
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [{"path": \#(path)}]}]}"#)
    let flattened = found.flatMap { m in m.disclosed.map { [m.index] as [any Sendable] + $0.parts }
    }
    #expect(flattened.map { $0.map { "\($0)" } } == expected.map { $0.map { "\($0)" } })
  }

  @Test func mixedSelectionWithAWrongTypeSelectsNothing() throws {
    // §7.2: a key applied when any selected element is not an object aborts processing.
    let credential = DCQLCredentialDescription.sdJWTVC(
      vct: "v", claims: ["list": [["k": "a"], "not an object", ["k": "b"]]])
    let path = try ClaimsPathPointer([.key("list"), .allElements, .key("k")])
    #expect(path.select(in: credential.claims).isEmpty)
    let ok = try ClaimsPathPointer([.key("list"), .index(2), .key("k")])
    #expect(ok.select(in: credential.claims).map(\.value) == ["b"])
  }

  // MARK: multiple

  @Test func multipleSelectsEveryCandidate() throws {
    let json =
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "multiple": true, "claims": [{"path": ["family_name"]}]}]}"#
    let result = try query(json).evaluate(Wallet.all)
    #expect(result.matches["q"]?.multiple == true)
    #expect(result.defaultSelection()["q"]?.map(\.credentialIndex) == [1, 2])
  }

  @Test func singleSelectsTheFirstCandidate() throws {
    let json =
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "claims": [{"path": ["family_name"]}]}]}"#
    let result = try query(json).evaluate(Wallet.all)
    #expect(result.matches["q"]?.candidates.map(\.credentialIndex) == [1, 2])
    #expect(result.defaultSelection()["q"]?.map(\.credentialIndex) == [1])
  }

  // MARK: formats side by side

  @Test func mdocAndSDJWTSideBySide() throws {
    let json = #"""
      {"credentials": [
        {"id": "mdl", \#(Self.mdlMeta), "claims": [{"path": ["org.iso.18013.5.1", "family_name"], "intent_to_retain": true}]},
        {"id": "pid", \#(Self.pidMeta), "claims": [{"path": ["family_name"]}]}]}
      """#
    let parsed = try query(json)
    #expect(parsed.credentials[0].claims?[0].intentToRetain == true)
    #expect(parsed.credentials[1].claims?[0].intentToRetain == nil)
    let result = parsed.evaluate(Wallet.all)
    #expect(result.isSatisfied)
    let selection = result.defaultSelection()
    #expect(selection["mdl"]?.map(\.credentialIndex) == [0])
    #expect(selection["mdl"]?.first?.disclosed == [concrete("org.iso.18013.5.1", "family_name")])
    #expect(selection["pid"]?.map(\.credentialIndex) == [1])
  }

  @Test func legacyMdocNamespaceAndClaimName() throws {
    let parsed = try query(
      #"{"credentials": [{"id": "q", \#(Self.mdlMeta), "claims": [{"namespace": "org.iso.18013.5.1", "claim_name": "given_name"}]}]}"#
    )
    #expect(
      parsed.credentials[0].claims?[0].path
        == (try ClaimsPathPointer([.key("org.iso.18013.5.1"), .key("given_name")])))
    #expect(parsed.evaluate(Wallet.all).matches["q"]?.candidates.map(\.credentialIndex) == [0])
  }

  @Test func noClaimsMatchesTheWholeCredential() throws {
    let found = try matches(#"{"credentials": [{"id": "q", \#(Self.pidMeta)}]}"#)
    #expect(found.map(\.index) == [1, 2])
    #expect(found.allSatisfy { $0.disclosed.isEmpty && $0.set == nil })
  }

  @Test func formatWithEmptyMetaMatchesEveryCredentialOfTheFormat() throws {
    let found = try matches(#"{"credentials": [{"id": "q", "format": "mso_mdoc", "meta": {}}]}"#)
    #expect(found.map(\.index) == [0, 3])
    // Without meta (REQUIRED, §6.1), nothing.
    #expect(try matches(#"{"credentials": [{"id": "q", "format": "mso_mdoc"}]}"#).isEmpty)
  }

  @Test func unknownFormats() throws {
    let other = DCQLCredentialDescription(format: "jwt_vc_json", claims: ["a": 1])
    let plain = try query(#"{"credentials": [{"id": "q", "format": "jwt_vc_json", "meta": {}}]}"#)
    #expect(plain.evaluate([other]).isSatisfied)
    // A meta this module cannot interpret is never taken as met.
    let constrained = try query(
      #"{"credentials": [{"id": "q", "format": "jwt_vc_json", "meta": {"type_values": [["VC"]]}}]}"#
    )
    #expect(constrained.credentials[0].meta.raw["type_values"] == [["VC"]])
    #expect(!constrained.evaluate([other]).isSatisfied)
  }

  // MARK: trusted_authorities and holder binding

  @Test(arguments: [
    (#"[{"type": "aki", "values": ["AQID"]}]"#, [0]),
    (#"[{"type": "aki", "values": ["BAUG", "AQID"]}]"#, [0]),
    (#"[{"type": "aki", "values": ["BAUG"]}]"#, []),
    (#"[{"type": "aki", "values": ["AQ"]}]"#, []),
    (#"[{"type": "etsi_tl", "values": ["https://lotl.example.com"]}]"#, []),
    (
      #"[{"type": "openid_federation", "values": ["https://ta.example"]}, {"type": "aki", "values": ["AQID"]}]"#,
      [0]
    ),
  ])
  func trustedAuthorities(authorities: String, expected: [Int]) throws {
    let found = try matches(
      #"{"credentials": [{"id": "q", \#(Self.mdlMeta), "trusted_authorities": \#(authorities)}]}"#)
    #expect(found.map(\.index) == expected)
  }

  @Test func akiWithURLSafeCharacters() throws {
    // pid1's AKI is fb ff, base64url "-_8".
    let found = try matches(
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "trusted_authorities": [{"type": "aki", "values": ["-_8"]}]}]}"#
    )
    #expect(found.map(\.index) == [1])
  }

  @Test func trustedAuthorityMismatchIsTheReason() throws {
    let result = try query(
      #"{"credentials": [{"id": "q", \#(Self.mdlMeta), "trusted_authorities": [{"type": "aki", "values": ["BAUG"]}]}]}"#
    ).evaluate(Wallet.all)
    #expect(result.unsatisfiedReason?.contains("trusted_authorities") == true)
  }

  @Test func holderBinding() throws {
    let unbound = DCQLCredentialDescription.sdJWTVC(
      vct: Wallet.pidVCT, claims: ["family_name": "Doe"], supportsHolderBinding: false)
    let required = try query(#"{"credentials": [{"id": "q", \#(Self.pidMeta)}]}"#)
    #expect(required.credentials[0].requireCryptographicHolderBinding)
    let refused = required.evaluate([unbound])
    #expect(!refused.isSatisfied)
    #expect(refused.unsatisfiedReason?.contains("holder binding") == true)
    let waived = try query(
      #"{"credentials": [{"id": "q", \#(Self.pidMeta), "require_cryptographic_holder_binding": false}]}"#
    )
    #expect(waived.evaluate([unbound]).isSatisfied)
  }

  // MARK: credential_sets

  static let setsQuery = #"""
    {"credentials": [
      {"id": "mdl", \#(mdlMeta)},
      {"id": "pid", \#(pidMeta), "claims": [{"path": ["region"]}]},
      {"id": "photo", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.23220.photoid.1"}},
      {"id": "vrc", "format": "mso_mdoc", "meta": {"doctype_value": "org.iso.7367.1.mVRC"}},
      {"id": "unused", \#(pidMeta)}],
     "credential_sets": [
      {"options": [["vrc"], ["mdl", "vrc"], ["mdl", "pid"], ["photo"]]},
      {"required": false, "options": [["vrc"], ["photo"]], "purpose": "nice to have"},
      {"required": false, "options": [["vrc"]]}]}
    """#

  @Test func credentialSetsChooseTheFirstSatisfiableOption() throws {
    // Set 0: vrc has no candidate, so options 0 and 1 fail; [mdl, pid] holds (pid2 has a region).
    // Set 1 is optional and met by photo; set 2 is optional and unmet.
    let parsed = try query(Self.setsQuery)
    #expect(parsed.credentialSets?[1].purpose == "nice to have")
    let result = parsed.evaluate(Wallet.all)
    #expect(result.isSatisfied)
    #expect(result.credentialSets.map(\.satisfiableOptions) == [[2, 3], [1], []])
    #expect(result.credentialSets.map(\.chosenOption) == [2, 1, nil])
    let selection = result.defaultSelection()
    // "unused" is in no credential set, so it is never selected even though it matches.
    #expect(result.matches["unused"]?.candidates.isEmpty == false)
    #expect(Set(selection.keys) == ["mdl", "pid", "photo"])
    #expect(selection["pid"]?.map(\.credentialIndex) == [2])
  }

  @Test func credentialSetsFallBack() throws {
    // Without pid2 nobody has a region: set 0 falls back to [photo].
    let result = try query(Self.setsQuery).evaluate([Wallet.mdl, Wallet.pid1, Wallet.photoID])
    #expect(result.isSatisfied)
    #expect(result.credentialSets[0].chosenOption == 3)
    #expect(Set(result.defaultSelection().keys) == ["photo"])
  }

  @Test func requiredCredentialSetUnmet() throws {
    let result = try query(Self.setsQuery).evaluate([Wallet.mdl, Wallet.pid1])
    #expect(!result.isSatisfied)
    let reason = try #require(result.unsatisfiedReason)
    #expect(reason.contains("credential_sets[0]"))
    #expect(reason.contains("\"vrc\""))
    #expect(reason.contains("[\"region\"]"))
    #expect(result.defaultSelection().isEmpty)
  }

  @Test("A query without meta (REQUIRED, §6.1) matches nothing; the option with meta answers")
  func credentialQueryWithoutMetaMatchesNothing() throws {
    let parsed = try query(
      #"""
      {"credentials": [
        {"id": "q_all", "format": "dc+sd-jwt", "claims": [{"path": ["family_name"]}]},
        {"id": "q_one", \#(Self.pidMeta), "claims": [{"path": ["family_name"]}]}],
       "credential_sets": [{"options": [["q_all"], ["q_one"]]}]}
      """#)
    #expect(parsed.credentials.map(\.meta.isPresent) == [false, true])
    let result = parsed.evaluate(Wallet.all)
    #expect(result.isSatisfied)
    let unmatched = try #require(result.matches["q_all"])
    #expect(unmatched.candidates.isEmpty)
    #expect(unmatched.unmatchedReason?.contains("no meta") == true)
    #expect(result.credentialSets.map(\.satisfiableOptions) == [[1]])
    let selection = result.defaultSelection()
    #expect(Set(selection.keys) == ["q_one"])
    #expect(selection["q_one"]?.map(\.credentialIndex) == [1])
    // An empty meta places no constraint (§6.1) and matches.
    let empty = try query(
      #"{"credentials": [{"id": "q", "format": "dc+sd-jwt", "meta": {}}]}"#)
    #expect(empty.credentials[0].meta.isPresent)
    #expect(empty.evaluate(Wallet.all).matches["q"]?.candidates.map(\.credentialIndex) == [1, 2])
    // Alone, a query without meta leaves the request unanswerable.
    let alone = try query(#"{"credentials": [{"id": "q", "format": "dc+sd-jwt"}]}"#)
    #expect(!alone.evaluate(Wallet.all).isSatisfied)
  }

  @Test func onlyOptionalSetsIsSatisfiedByNothing() throws {
    let result = try query(
      #"{"credentials": [{"id": "a", "format": "x"}], "credential_sets": [{"required": false, "options": [["a"]]}]}"#
    ).evaluate([])
    #expect(result.isSatisfied)
    #expect(result.defaultSelection().isEmpty)
  }

  @Test func evaluationScalesLinearly() throws {
    func wallet(_ count: Int) -> [any DCQLCredential] {
      (0..<count).map { $0 % 2 == 0 ? Wallet.pid2 : Wallet.mdl } + [Wallet.pid1]
    }
    let query = try Wallet.example("credentials_alternatives")
    let result = query.evaluate(wallet(1000))
    #expect(result.matches["pid"]?.candidates.map(\.credentialIndex) == [1000])
    // Sixteen times the credentials: about 16x the time when linear, 256x when quadratic; 64x
    // leaves room for a busy machine and still catches quadratic work.
    let ratio = scalingRatio(small: 1_000, large: 16_000, bound: 64) { count in
      let wallet = wallet(count)
      _ = query.evaluate(wallet)
    }
    #expect(ratio < 64, "16x the credentials took \(ratio)x the time")
  }
}

extension ClaimPath {
  var parts: [any Sendable] {
    components.map {
      switch $0 {
      case .key(let k): k as any Sendable
      case .index(let i): i as any Sendable
      }
    }
  }
}
