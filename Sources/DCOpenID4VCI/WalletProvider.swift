public import DCCrypto
import DCJOSE
import DCJSON
package import DCX509
package import Foundation

/// A client attestation ready to present: the Client Attestation JWT and the wallet instance
/// key its `cnf.jwk` names, which signs each Client Attestation PoP
/// (draft-ietf-oauth-attestation-based-client-auth §4, §5.1).
public struct ClientAttestationMaterial: Sendable {
  /// The Client Attestation JWT (`OAuth-Client-Attestation`).
  public var attestation: String
  /// The instance key: signs the PoPs.
  package var instanceKey: any Signer

  /// Pairs an attestation with its instance key.
  ///
  /// - Parameters:
  ///   - attestation: the Client Attestation JWT the wallet provider issued.
  ///   - instanceKey: the private key whose public key is the attestation's `cnf.jwk`; it signs
  ///     the PoPs.
  public init(attestation: String, instanceKey: any Signer) {
    self.attestation = attestation
    self.instanceKey = instanceKey
  }
}

/// The wallet provider's side of HAIP 1.0 issuance: the client attestation the wallet
/// authenticates with at the authorization server (OpenID4VCI 1.0 Appendix E, attestation-based
/// client auth) and key attestations for the device keys credentials are bound to (Appendix D).
///
/// A production provider asks its backend, which checks platform attestations (App Attest,
/// Play Integrity) before signing; the package's `DevelopmentWalletProvider` signs with a local
/// key for tests, the demo and the CLI.
public protocol WalletProvider: Sendable {
  /// The `client_id` the attestations name (`sub` of the Client Attestation).
  var clientID: String { get }

  /// A Client Attestation for this wallet instance.
  func clientAttestation() async throws -> ClientAttestationMaterial

  /// A key attestation JWT (Appendix D.1) listing `keys`, with the issuer's `c_nonce` as
  /// `nonce` when given.
  func keyAttestation(for keys: [ECPublicKey], nonce: String?) async throws -> String
}

/// A wallet provider that signs with its own key: for development and tests only, since nothing
/// vouches for the wallet it attests. Issuers that should accept it trust ``attesterPublicKey``
/// (or ``attesterCertificate``).
package struct DevelopmentWalletProvider: WalletProvider {
  package let clientID: String
  /// The provider's identifier, the attestations' `iss`.
  package let issuer: String
  /// The attester key.
  let attesterKey: ECPrivateKey
  /// The wallet instance key.
  let instanceKey: ECPrivateKey
  /// A self-signed certificate for the attester key, sent as `x5c`.
  package let attesterCertificate: Certificate?
  /// How long attestations are valid.
  package var validity: TimeInterval
  /// `key_storage` and `user_authentication` claimed for device keys (Appendix D.2).
  package var keyStorage: [String]
  package var userAuthentication: [String]
  /// The clock.
  package var clock: @Sendable () -> Date

  /// A provider with fresh attester and instance keys.
  package init(
    clientID: String = "dcwallet-development", issuer: String = "https://wallet-provider.invalid",
    attesterKey: ECPrivateKey? = nil, attesterCertificate: Certificate? = nil,
    validity: TimeInterval = 3600, keyStorage: [String] = [KeyAttestation.iso18045Basic],
    userAuthentication: [String] = [KeyAttestation.iso18045Basic],
    clock: @escaping @Sendable () -> Date = { Date() }
  ) throws {
    self.clientID = clientID
    self.issuer = issuer
    self.attesterKey = try attesterKey ?? ECPrivateKey(curve: .p256)
    self.instanceKey = try ECPrivateKey(curve: .p256)
    self.attesterCertificate = attesterCertificate
    self.validity = validity
    self.keyStorage = keyStorage
    self.userAuthentication = userAuthentication
    self.clock = clock
  }

  /// The key issuers trust to accept this provider's attestations.
  package var attesterPublicKey: ECPublicKey { attesterKey.publicKey }

  var keyHeader: AttesterKeyHeader {
    attesterCertificate.map { .x5c([$0.derBytes]) } ?? .kid("development-attester")
  }

  package func clientAttestation() async throws -> ClientAttestationMaterial {
    let now = clock()
    let attestation = try ClientAttestation.attestation(
      signer: attesterKey, keyHeader: keyHeader, issuer: issuer, clientID: clientID,
      instanceKey: instanceKey.publicKey, issuedAt: now,
      expiresAt: now.addingTimeInterval(validity),
      additionalClaims: [("wallet_name", .string("dcwallet (development)"))])
    return ClientAttestationMaterial(attestation: attestation, instanceKey: instanceKey)
  }

  package func keyAttestation(for keys: [ECPublicKey], nonce: String?) async throws -> String {
    let now = clock()
    return try KeyAttestation.attestation(
      signer: attesterKey, keyHeader: keyHeader, issuer: issuer, attestedKeys: keys, issuedAt: now,
      expiresAt: now.addingTimeInterval(validity), keyStorage: keyStorage,
      userAuthentication: userAuthentication, nonce: nonce)
  }
}
