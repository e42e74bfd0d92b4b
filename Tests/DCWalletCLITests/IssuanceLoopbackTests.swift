import DCHTTP
import DCIssuer
import DCOpenID4VCI
import DCWallet
import Foundation
import Testing

@testable import DCWalletCLI

#if os(Linux)
  /// Wallet ↔ the development issuer over real loopback HTTP: URLSessionHTTPClient,
  /// DevelopmentHTTPServer (libmicrohttpd), the issuer's handlers with SQLite state, and the
  /// wallet's verify-before-storage (issue 13).
  @Suite("Issuance over loopback HTTP", .timeLimit(.minutes(1)))
  struct IssuanceLoopbackTests {
    @Test("pre-authorized code: a wrong tx_code is refused, the right one stores a batch")
    func preAuthorizedBatch() async throws {
      let issuer = try LoopbackIssuer()
      let issuance = try issuer.wallet()
      let created = try issuer.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: true))
      let code = try #require(created.transactionCode)
      let wrong = String(code.map { $0 == "0" ? "1" : "0" })
      let storage = WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true)
      let wrongCode = await #expect(throws: IssuanceError.self) {
        _ = try await issuance.issuePreAuthorized(
          offer: created.offer, txCode: wrong, storage: storage)
      }
      #expect(wrongCode?.code == .token)
      #expect(try await issuance.wallet.credentials().isEmpty)
      // No tx_code at all: refused before any request, naming it.
      do {
        _ = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
        Issue.record("a missing tx_code was accepted")
      } catch {
        #expect(error.code == .txCodeRequired)
        #expect(error.reason.contains("tx_code"))
      }

      let result = try await issuance.issuePreAuthorized(
        offer: created.offer, txCode: code, options: IssuanceClient.Options(batchSize: 3),
        storage: storage)
      #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
      #expect(result.stored.count == 3)
      #expect(Set(result.stored.compactMap(\.deviceKeyID)).count == 3)
      #expect(Set(result.stored.compactMap(\.issuance?.batchID)).count == 1)
      #expect(result.stored.allSatisfy { $0.issuance?.trustBasis == .issuerPublishedIACA })
      #expect(
        result.stored.allSatisfy { $0.issuance?.display.first?.name == "Mobile Driving Licence" })
      #expect(try issuer.events() == [.credentialAccepted])

      // Batch use-once: of the three, one is offered at a time.
      #expect(Wallet.onePerBatch(try await issuance.wallet.credentials()).count == 1)

      // remove tells the issuer credential_deleted with the stored token and DPoP key.
      let removed = try await issuance.removeCredential(id: result.stored[0].id)
      if case .failure(let error) = removed { Issue.record("not notified: \(error.reason)") }
      #expect(removed != nil)
      #expect(try issuer.events() == [.credentialAccepted, .credentialDeleted])
      #expect(try await issuance.wallet.credentials().count == 2)
    }

    @Test("without the IACA opt-in (and no anchor) nothing is stored and the issuer hears failure")
    func untrustedIssuerStoresNothing() async throws {
      let issuer = try LoopbackIssuer()
      let issuance = try issuer.wallet()
      let created = try issuer.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      let result = try await issuance.issuePreAuthorized(offer: created.offer, txCode: nil)
      #expect(result.stored.isEmpty)
      #expect(result.failed.count == 1)
      if case .rejected(let rejection) = result.failed.first?.cause {
        #expect(rejection.code == .untrustedIssuer)
      } else {
        Issue.record("expected a verification refusal, got \(result.failed.map(\.reason))")
      }
      #expect(try await issuance.wallet.credentials().isEmpty)
      #expect(try issuer.events() == [.credentialFailure])

      // The wallet's own anchor is enough without the opt-in, and is recorded as such.
      _ = try await issuance.wallet.addTrustAnchor(issuer.pki.iaca, role: .issuer)
      let again = try issuer.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      let trusted = try await issuance.issuePreAuthorized(offer: again.offer, txCode: nil)
      #expect(trusted.failed.isEmpty, "\(trusted.failed.map(\.reason))")
      #expect(trusted.stored.map(\.format) == [.msoMdoc])
      #expect(trusted.stored.allSatisfy { $0.issuance?.trustBasis != .issuerPublishedIACA })
    }

    @Test("authorization code with PAR, PKCE and DPoP nonces; a wrong state is refused")
    func authorizationCode() async throws {
      var settings = DevelopmentIssuerSettings()
      settings.autoApprove = true
      settings.requirePAR = true
      let issuer = try LoopbackIssuer(settings: settings)
      let issuance = try issuer.wallet()
      let storage = WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true, ids: ["auth"])

      let offer = try issuer.service.createOffer(
        configurationIDs: ["mDL"], grant: .authorizationCode)
      let tampered = try await issuance.beginAuthorization(offer: offer.offer)
      #expect(tampered.authorizationURL.query?.contains("request_uri") == true)
      let redirect = try await followAuthorizationRedirect(tampered.authorizationURL)
      var components = try #require(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
      components.queryItems = components.queryItems?.map {
        $0.name == "state" ? URLQueryItem(name: "state", value: "not-the-state") : $0
      }
      let tamperedRedirect = try #require(components.url)
      let wrongState = await #expect(throws: IssuanceError.self) {
        _ = try await issuance.completeAuthorization(
          tampered, redirect: tamperedRedirect, storage: storage)
      }
      #expect(wrongState?.code == .authorization)

      let pending = try await issuance.beginAuthorization(offer: offer.offer)
      let result = try await issuance.completeAuthorization(
        pending, redirect: try await followAuthorizationRedirect(pending.authorizationURL),
        storage: storage)
      #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
      #expect(result.stored.map(\.id) == ["auth"])
    }

    @Test("deferred issuance is stored as pending, then polled into storage")
    func deferredThenPoll() async throws {
      var settings = DevelopmentIssuerSettings()
      settings.deferred = ["mDL"]
      let issuer = try LoopbackIssuer(settings: settings)
      let issuance = try issuer.wallet()
      let created = try issuer.service.createOffer(
        configurationIDs: ["mDL"], grant: .preAuthorized(transactionCode: false))
      let first = try await issuance.issuePreAuthorized(
        offer: created.offer, txCode: nil,
        storage: WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true))
      #expect(first.stored.isEmpty)
      #expect(first.failed.isEmpty, "\(first.failed.map(\.reason))")
      #expect(first.deferred.count == 1)
      #expect(try await issuance.wallet.pendingDeferredIssuances().count == 1)

      let polled = try await issuance.pollDeferred()
      #expect(polled.failed.isEmpty, "\(polled.failed.map(\.reason))")
      #expect(polled.stored.count == 1)
      #expect(polled.stored.first?.issuance?.trustBasis == .issuerPublishedIACA)
      #expect(try await issuance.wallet.pendingDeferredIssuances().isEmpty)
      #expect(try issuer.events() == [.credentialAccepted])
    }

    @Test("an encrypted credential response is decrypted, verified and stored")
    func encryptedResponse() async throws {
      var settings = DevelopmentIssuerSettings()
      settings.responseEncryption = ResponseEncryptionPolicy(required: true)
      let issuer = try LoopbackIssuer(settings: settings)
      let issuance = try issuer.wallet()
      // The IACA opt-in covers mdoc anchors only: the SD-JWT VC needs a wallet anchor; its leaf
      // names the loopback issuer URL as a URI SAN (SD-JWT VC key discovery).
      _ = try await issuance.wallet.addTrustAnchor(issuer.pki.iaca, role: .issuer)
      let created = try issuer.service.createOffer(
        configurationIDs: ["pid", "mDL"], grant: .preAuthorized(transactionCode: false))
      let result = try await issuance.issuePreAuthorized(
        offer: created.offer, txCode: nil,
        storage: WalletIssuance.StorageOptions(trustIssuerPublishedIACAs: true))
      #expect(result.failed.isEmpty, "\(result.failed.map(\.reason))")
      #expect(Set(result.stored.map(\.format)) == [.msoMdoc, .sdJWT])
    }
  }
#endif
