public import DCCrypto
public import DCHTTP
import DCJOSE
import DCJSON
public import DCOpenID4VCI
public import DCX509
public import Foundation

/// The wallet side of OpenID4VCI 1.0 (HAIP 1.0 profile) over any `HTTPClient` (DCHTTP): resolves
/// offers, fetches metadata, runs the pre-authorized code and authorization code flows with
/// PKCE, PAR, DPoP and client attestation, requests credentials (batches, deferred, encrypted
/// responses) and sends notifications.
///
/// It neither verifies nor stores credentials: ``WalletIssuance`` runs it, and verifies each
/// credential it receives before storing it in the wallet.
public struct IssuanceClient: Sendable {
  /// What the client is configured with.
  public struct Configuration: Sendable {
    /// Which URLs are acceptable (https; loopback http in development).
    package var urlPolicy: URLPolicy
    /// The `client_id` when no wallet provider supplies one.
    public var clientID: String
    /// The `redirect_uri` registered for the authorization code flow.
    public var redirectURI: String
    /// Supplies client and key attestations; nil when the wallet has none.
    package var walletProvider: (any WalletProvider)?
    /// Anchors signed issuer metadata must chain to (§12.2.3); with none, signed metadata is
    /// not checked and the plain JSON metadata is used.
    package var metadataTrustAnchors: [Certificate]
    /// The clock.
    package var clock: @Sendable () -> Date
    /// Makes the device keys credentials are bound to, one per proof.
    package var makeDeviceKey: @Sendable () throws -> ECPrivateKey
    /// Encrypt credential responses even when the issuer does not require it.
    package var preferEncryptedResponses: Bool

    /// A configuration; the defaults suit a development wallet against an `https` issuer.
    ///
    /// - Parameters:
    ///   - urlPolicy: the URLs the client may fetch (`https`; loopback `http` only with the
    ///     development policy).
    ///   - clientID: the `client_id` when no wallet provider supplies one.
    ///   - redirectURI: the `redirect_uri` registered for the authorization code flow.
    ///   - walletProvider: supplies Client Attestations and key attestations; nil when the wallet
    ///     has none.
    ///   - metadataTrustAnchors: the anchors signed issuer metadata must chain to (§12.2.3); with
    ///     none, signed metadata is not checked and the plain JSON metadata is used.
    ///   - clock: the current time; tests inject a fixed one.
    ///   - makeDeviceKey: makes each device key a credential is bound to (one per proof); a fresh
    ///     P-256 key by default.
    ///   - preferEncryptedResponses: ask for encrypted credential responses even when the issuer
    ///     does not require them (§10).
    public init(
      urlPolicy: URLPolicy = .standard, clientID: String = "dcwallet",
      redirectURI: String = "https://wallet.invalid/callback",
      walletProvider: (any WalletProvider)? = nil, metadataTrustAnchors: [Certificate] = [],
      clock: @escaping @Sendable () -> Date = { Date() },
      makeDeviceKey: @escaping @Sendable () throws -> ECPrivateKey = {
        try ECPrivateKey(curve: .p256)
      },
      preferEncryptedResponses: Bool = false
    ) {
      self.urlPolicy = urlPolicy
      self.clientID = clientID
      self.redirectURI = redirectURI
      self.walletProvider = walletProvider
      self.metadataTrustAnchors = metadataTrustAnchors
      self.clock = clock
      self.makeDeviceKey = makeDeviceKey
      self.preferEncryptedResponses = preferEncryptedResponses
    }
  }

  /// What to ask for.
  public struct Options: Sendable, Hashable {
    /// The configurations to request; nil for every one the offer names.
    package var configurationIDs: [String]?
    /// Credentials per configuration (one proof and one device key each), capped by the
    /// issuer's `batch_size` (§12.2.4).
    package var batchSize: Int

    /// Options for one issuance.
    ///
    /// - Parameters:
    ///   - configurationIDs: the configurations to request; nil for every one the offer names.
    ///   - batchSize: credentials per configuration (one proof and one device key each), capped by
    ///     the issuer's `batch_size` (§12.2.4).
    public init(configurationIDs: [String]? = nil, batchSize: Int = 1) {
      self.configurationIDs = configurationIDs
      self.batchSize = batchSize
    }
  }

  package let http: any HTTPClient
  package var configuration: Configuration

  /// A client that makes its requests through `http`.
  ///
  /// - Parameters:
  ///   - http: the HTTP client every request goes through.
  ///   - configuration: identifiers, trust anchors, attestation and key making.
  public init(http: any HTTPClient, configuration: Configuration = Configuration()) {
    self.http = http
    self.configuration = configuration
  }

  var plainSession: IssuanceExchange {
    IssuanceExchange(http: http, clock: configuration.clock, dpopKey: nil)
  }

  // MARK: Offers and metadata

  /// The offer in `text` (an offer URI or JSON, §4.1), fetched when it is by reference
  /// (`credential_offer_uri`, §4.1.3: a GET answered with the offer JSON).
  public func resolveOffer(_ text: String) async throws(IssuanceError) -> CredentialOffer {
    let source: CredentialOfferSource
    do {
      source = try CredentialOffer.parse(text, policy: configuration.urlPolicy)
    } catch {
      throw IssuanceError(.offer, error.reason, underlying: error)
    }
    switch source {
    case .value(let offer): return offer
    case .reference(let url, _):
      let response = try await plainSession.get(url, accept: "application/json")
      guard response.status == 200 else {
        throw IssuanceError(.offer, "credential_offer_uri answered HTTP \(response.status)")
      }
      do {
        return try CredentialOffer(jsonBytes: response.body, policy: configuration.urlPolicy)
      } catch {
        throw IssuanceError(.offer, error.reason, underlying: error)
      }
    }
  }

  /// The issuer's metadata (§12.2.2), checked to name `identifier` (§12.2.4); signed metadata
  /// (§12.2.3) is verified against the configuration's `metadataTrustAnchors` when any are
  /// set.
  public func issuerMetadata(_ identifier: IssuerIdentifier) async throws(IssuanceError)
    -> IssuerContext
  {
    let response = try await plainSession.get(
      identifier.credentialIssuerMetadataURL, accept: "application/json, application/jwt")
    guard response.status == 200 else {
      throw IssuanceError(.metadata, "issuer metadata: HTTP \(response.status)")
    }
    let anchors = configuration.metadataTrustAnchors
    do {
      if response.mediaType == "application/jwt" {
        // §12.2.3: the whole response is the signed metadata.
        guard !anchors.isEmpty else {
          throw IssuanceError(
            .metadata, "the issuer serves signed metadata and no trust anchors are configured")
        }
        guard response.body.count <= CredentialIssuerMetadata.maximumLength else {
          throw IssuanceError(.metadata, "issuer metadata is too large")
        }
        let signed = try SignedIssuerMetadata(
          compact: String(decoding: response.body, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        let metadata = try signed.verify(
          trustAnchors: anchors, at: configuration.clock(), expectedIssuer: identifier,
          urlPolicy: configuration.urlPolicy)
        var context = IssuerContext(metadata: metadata, signedMetadataVerified: true)
        context.metadataSignerChain = Self.chain(signed.jws.x5c)
        return context
      }
      let metadata = try CredentialIssuerMetadata(
        jsonBytes: response.body, policy: configuration.urlPolicy
      ).validated(for: identifier)
      if let signed = metadata.signedMetadata, !anchors.isEmpty {
        let verified = try signed.verify(
          trustAnchors: anchors, at: configuration.clock(), expectedIssuer: identifier,
          urlPolicy: configuration.urlPolicy)
        var context = IssuerContext(metadata: verified, signedMetadataVerified: true)
        context.metadataSignerChain = Self.chain(signed.jws.x5c)
        return context
      }
      return IssuerContext(metadata: metadata, signedMetadataVerified: false)
    } catch let error as IssuanceError {
      throw error
    } catch let error as OpenID4VCIError {
      throw IssuanceError(.metadata, error.reason, underlying: error)
    } catch {
      throw IssuanceError(.metadata, "\(error)")
    }
  }

  /// The certificates of a verified signed metadata's `x5c`, leaf first (empty without one).
  static func chain(_ x5c: [[UInt8]]?) -> [Certificate] {
    (x5c ?? []).compactMap { try? Certificate(derEncoded: $0) }
  }

  /// The authorization server's metadata: RFC 8414's well-known URL, then OpenID Connect
  /// discovery's; the first answer must name `identifier` (RFC 8414 §3.3).
  package func authorizationServerMetadata(_ identifier: IssuerIdentifier)
    async throws(IssuanceError) -> AuthorizationServerMetadata
  {
    var statuses: [Int] = []
    for url in identifier.authorizationServerMetadataURLs {
      let response = try await plainSession.get(url, accept: "application/json")
      guard response.status == 200 else {
        statuses.append(response.status)
        continue
      }
      do {
        return try AuthorizationServerMetadata(
          jsonBytes: response.body, policy: configuration.urlPolicy
        )
        .validated(for: identifier)
      } catch {
        throw IssuanceError(.metadata, error.reason, underlying: error)
      }
    }
    throw IssuanceError(
      .metadata,
      "no authorization server metadata for \(identifier) (HTTP \(statuses.map(String.init).joined(separator: ", ")))"
    )
  }

  /// The IACA certificates the issuer publishes at `mdoc_iacas_uri` (issue 13 contract:
  /// `{"iacas": [{"certificate": "<base64 DER>"}]}`), DER-encoded, for an explicit opt-in to
  /// trust them.
  package func issuerIACAs(_ context: IssuerContext) async throws(IssuanceError) -> [[UInt8]] {
    guard let url = context.metadata.mdocIACAsURI else {
      throw IssuanceError(.metadata, "the issuer publishes no mdoc_iacas_uri")
    }
    let response = try await plainSession.get(url, accept: "application/json")
    guard response.status == 200, response.body.count <= 1 << 20,
      let json = try? JSONValue(parsing: response.body), let entries = json["iacas"]?.array
    else { throw IssuanceError(.metadata, "mdoc_iacas_uri did not answer an iacas list") }
    var certificates: [[UInt8]] = []
    for entry in entries.prefix(64) {
      guard let text = entry["certificate"]?.string, let der = Data(base64Encoded: text) else {
        throw IssuanceError(.metadata, "an iacas entry has no base64 certificate")
      }
      certificates.append(Array(der))
    }
    return certificates
  }
}

/// An issuer's metadata as fetched and checked.
public struct IssuerContext: Sendable, Hashable {
  package var metadata: CredentialIssuerMetadata
  /// Whether the metadata came from a signed metadata JWT verified against trust anchors.
  package var signedMetadataVerified: Bool
  /// The chain that signed the verified signed metadata (its `x5c`, leaf first): the issuer's
  /// authenticated certificate, which its registration's `sub` is bound to; empty otherwise.
  package var metadataSignerChain: [Certificate] = []

  /// An issuer context from metadata already fetched and checked.
  ///
  /// - Parameters:
  ///   - metadata: the credential issuer metadata.
  ///   - signedMetadataVerified: whether it came from signed metadata verified against trust
  ///     anchors (§12.2.3).
  package init(metadata: CredentialIssuerMetadata, signedMetadataVerified: Bool) {
    self.metadata = metadata
    self.signedMetadataVerified = signedMetadataVerified
  }
}
