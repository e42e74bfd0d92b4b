import DCTrust
import Foundation
import Testing

/// The registration certificate's limits (docs/LIMITS.md), at and past each.
@Suite struct RegistrationLimitTests {
  let fixture: RegistrationFixture

  init() throws { fixture = try RegistrationFixture() }

  func code(_ bytes: [UInt8]) -> TrustErrorCode? {
    do {
      _ = try RegistrationCertificate.verifying(bytes, sources: fixture.sources, at: fixture.clock)
      return nil
    } catch {
      return error.code
    }
  }

  @Test func size() {
    #expect(code([UInt8](repeating: 0x41, count: 64 * 1024 + 1)) == .tooLarge)
    #expect(code([UInt8](repeating: 0x41, count: 64 * 1024)) == .malformed)
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func chainLength(form: RegistrationFixture.Form) throws {
    let at = [fixture.provider] + Array(repeating: fixture.providerRoot, count: 7)
    #expect(code(try fixture.sign(fixture.builder(), form, chain: at)) != .tooLarge)
    let past = at + [fixture.providerRoot]
    #expect(code(try fixture.sign(fixture.builder(), form, chain: past)) == .tooLarge)
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func credentials(form: RegistrationFixture.Form) throws {
    var builder = fixture.builder()
    let one = RegisteredCredential(format: "mso_mdoc", docType: "d", claims: nil)
    builder.credentials = Array(repeating: one, count: 64)
    #expect(code(try fixture.sign(builder, form)) == nil)
    builder.credentials.append(one)
    #expect(code(try fixture.sign(builder, form)) == .tooLarge)
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func claimsPerCredential(form: RegistrationFixture.Form) throws {
    var builder = fixture.builder()
    let claims = (0..<256).map { RegistrationClaimPath([.key("c\($0)")]) }
    builder.credentials = [RegisteredCredential(format: "mso_mdoc", docType: "d", claims: claims)]
    #expect(code(try fixture.sign(builder, form)) == nil)
    builder.credentials = [
      RegisteredCredential(
        format: "mso_mdoc", docType: "d", claims: claims + [RegistrationClaimPath([.key("x")])])
    ]
    #expect(code(try fixture.sign(builder, form)) == .tooLarge)
  }

  @Test(arguments: RegistrationFixture.Form.allCases)
  func pathLength(form: RegistrationFixture.Form) throws {
    var builder = fixture.builder()
    let at = RegistrationClaimPath(Array(repeating: .key("k"), count: 16))
    builder.credentials = [RegisteredCredential(format: "dc+sd-jwt", claims: [at])]
    #expect(code(try fixture.sign(builder, form)) == nil)
    let past = RegistrationClaimPath(Array(repeating: .key("k"), count: 17))
    builder.credentials = [RegisteredCredential(format: "dc+sd-jwt", claims: [past])]
    #expect(code(try fixture.sign(builder, form)) == .malformed)
  }
}
