import DCJSON
import DCQL
import Foundation
import Testing

/// The OpenID4VP 1.0 example queries against the fixed wallet, each expectation derived by hand.
@Suite struct SpecExampleEvaluationTests {
  @Test func simple() throws {
    // Needs family_name, given_name, address.street_address of the identity_credential vct:
    // only pid1 has an address object.
    let result = try Wallet.example("simple").evaluate(Wallet.all)
    #expect(result.isSatisfied)
    let match = try #require(result.matches["my_credential"])
    #expect(match.candidates.map(\.credentialIndex) == [1])
    #expect(
      match.candidates[0].disclosed == [
        concrete("family_name"), concrete("given_name"), concrete("address", "street_address"),
      ])
    #expect(match.candidates[0].claimSetIndex == nil)
    #expect(result.defaultSelection()["my_credential"] == [match.candidates[0]])
  }

  @Test func simpleMdocHasNoVehicleRegistration() throws {
    // The wallet holds no org.iso.7367.1.mVRC: both mdocs fail on doctype, the PIDs on format.
    let result = try Wallet.example("simple_mdoc").evaluate(Wallet.all)
    #expect(!result.isSatisfied)
    #expect(result.matches["my_credential"]?.candidates == [])
    let reason = try #require(result.unsatisfiedReason)
    #expect(reason.contains("my_credential"))
    #expect(reason.contains("2 of format mso_mdoc with other metadata"))
    #expect(result.defaultSelection().isEmpty)
  }

  @Test func valueMatching() throws {
    // family_name must be "Doe" and postal_code 90210 or 90211: pid1 (Doe, 90210) only;
    // pid2 is Roe / 12345.
    let result = try Wallet.example("value_matching_simple").evaluate(Wallet.all)
    let match = try #require(result.matches["my_credential"])
    #expect(match.candidates.map(\.credentialIndex) == [1])
    #expect(
      match.candidates[0].disclosed == [
        concrete("family_name"), concrete("given_name"), concrete("address", "street_address"),
        concrete("postal_code"),
      ])
  }

  @Test func claimsAlternatives() throws {
    // claim_sets [a,c,d,e] (family_name, locality, region, date_of_birth) then [a,b,e]
    // (family_name, postal_code, date_of_birth). pid1 has no region: second set. pid2 has a
    // region: first set, although the second would disclose less.
    let result = try Wallet.example("claims_alternatives").evaluate(Wallet.all)
    let match = try #require(result.matches["pid"])
    #expect(match.candidates.map(\.credentialIndex) == [1, 2])
    #expect(match.candidates[0].claimSetIndex == 1)
    #expect(
      match.candidates[0].disclosed == [
        concrete("family_name"), concrete("postal_code"), concrete("date_of_birth"),
      ])
    #expect(match.candidates[1].claimSetIndex == 0)
    #expect(
      match.candidates[1].disclosed == [
        concrete("family_name"), concrete("locality"), concrete("region"),
        concrete("date_of_birth"),
      ])
    // multiple is false: the default selection is the first candidate only.
    #expect(result.defaultSelection()["pid"] == [match.candidates[0]])
  }

  @Test func multiCredentialsNeedsAnMVRC() throws {
    // Without credential_sets every query is required; "mdl" asks for an mVRC doctype.
    let result = try Wallet.example("multi_credentials").evaluate(Wallet.all)
    #expect(result.matches["pid"]?.candidates.map(\.credentialIndex) == [1])
    #expect(result.matches["mdl"]?.candidates == [])
    #expect(!result.isSatisfied)
    #expect(result.unsatisfiedReason?.contains("\"mdl\"") == true)
    #expect(result.unsatisfiedReason?.contains("\"pid\"") == false)
    #expect(result.credentialSets.isEmpty)
  }

  @Test func complexMdocWithBothDocuments() throws {
    // Set 0 (required): [mdl-id] or [photo_card-id], both satisfiable, first chosen.
    // Set 1 (optional): [mdl-address] satisfiable (the mDL has the address), photo ID has none.
    let result = try Wallet.example("complex_mdoc").evaluate(Wallet.all)
    #expect(result.isSatisfied)
    #expect(result.matches["mdl-id"]?.candidates.map(\.credentialIndex) == [0])
    #expect(result.matches["mdl-address"]?.candidates.map(\.credentialIndex) == [0])
    #expect(result.matches["photo_card-id"]?.candidates.map(\.credentialIndex) == [3])
    #expect(result.matches["photo_card-address"]?.candidates == [])
    #expect(result.credentialSets.map(\.satisfiableOptions) == [[0, 1], [0]])
    #expect(result.credentialSets.map(\.chosenOption) == [0, 0])
    #expect(result.credentialSets.map(\.required) == [true, false])
    let selection = result.defaultSelection()
    #expect(Set(selection.keys) == ["mdl-id", "mdl-address"])
    #expect(
      selection["mdl-id"]?.first?.disclosed == [
        concrete("org.iso.18013.5.1", "given_name"), concrete("org.iso.18013.5.1", "family_name"),
        concrete("org.iso.18013.5.1", "portrait"),
      ])
  }

  @Test func complexMdocWithOnlyThePhotoID() throws {
    // Set 0 falls back to option 1; optional set 1 cannot be met and is left out.
    let result = try Wallet.example("complex_mdoc").evaluate([Wallet.photoID])
    #expect(result.isSatisfied)
    #expect(result.credentialSets.map(\.chosenOption) == [1, nil])
    #expect(Set(result.defaultSelection().keys) == ["photo_card-id"])
  }

  @Test func complexMdocWithoutMdocs() throws {
    let result = try Wallet.example("complex_mdoc").evaluate([Wallet.pid1, Wallet.pid2])
    #expect(!result.isSatisfied)
    let reason = try #require(result.unsatisfiedReason)
    #expect(reason.contains("credential_sets[0]"))
    #expect(reason.contains("no credential has format mso_mdoc"))
    #expect(result.defaultSelection().isEmpty)
  }

  @Test func credentialsAlternatives() throws {
    // Set 0: [pid] | [other_pid] | [pid_reduced_cred_1, pid_reduced_cred_2]. Only "pid" (pid1,
    // the one with address.street_address) is met. Optional nice_to_have: no rewards credential.
    let result = try Wallet.example("credentials_alternatives").evaluate(Wallet.all)
    #expect(result.isSatisfied)
    #expect(result.matches["pid"]?.candidates.map(\.credentialIndex) == [1])
    #expect(result.matches["other_pid"]?.candidates == [])
    #expect(result.credentialSets.map(\.satisfiableOptions) == [[0], []])
    #expect(Set(result.defaultSelection().keys) == ["pid"])
  }

  @Test func everyExampleEvaluatesAgainstAnEmptyWallet() throws {
    for name in VectorTests.exampleNames {
      let result = try Wallet.example(name).evaluate([])
      #expect(!result.isSatisfied, "\(name)")
      #expect(result.unsatisfiedReason?.contains("no credentials") == true, "\(name)")
    }
  }
}
