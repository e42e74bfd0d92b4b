import DCAPI
import DCCrypto
import DCJSON
import DCMdoc
import DCOrgIsoMdoc
import DCTestSupport
import DCWallet
import DCWalletTestSupport
import DCX509
import Foundation
import IdentityDocumentServices
import IdentityDocumentServicesUI
import Security

/// A wallet holding one mDL, a reader key and the Apple request that asks for it, for the adapter
/// tests over the shadow SDK.
struct ShadowWalletFixture {
  static let origin = "https://verifier.example"
  static let items = ItemsRequest(
    docType: "org.iso.18013.5.1.mDL",
    nameSpaces: [
      (
        "org.iso.18013.5.1",
        [.init("family_name", intentToRetain: false), .init("portrait", intentToRetain: true)]
      )
    ])

  let directory: URL
  let pki: TestPKI
  let readerKey: ECPrivateKey

  init() async throws {
    directory = TestScratch.url("appleshadow")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    pki = try TestPKI()
    readerKey = try ECPrivateKey(curve: .p256)
    let wallet = try self.wallet()
    _ = try await wallet.addTrustAnchor(pki.iaca, role: .issuer)
    _ = try await wallet.addTrustAnchor(pki.readerRoot, role: .reader)
    let key = try ECPrivateKey(curve: .p256)
    _ = try await wallet.importMdoc(
      try pki.issue(deviceKey: key.publicKey).bytes, deviceKey: key, id: "mdl")
  }

  func wallet(authenticator: any UserAuthenticator = ImplicitAuthenticator()) throws -> Wallet {
    let now = pki.clock
    return try Wallet(
      home: WalletHome(directory: directory.path), authenticator: authenticator, clock: { now })
  }

  /// The raw Annex C request (`{"deviceRequest", "encryptionInfo"}`) for `items`.
  func rawRequest(_ items: ItemsRequest = Self.items) -> AnnexCRequest {
    AnnexCRequest(
      deviceRequest: DeviceRequest(docRequests: [DocRequest(itemsRequest: items)]),
      encryptionInfo: EncryptionInfo(
        nonce: [UInt8](repeating: 7, count: 16), recipientPublicKey: readerKey.publicKey))
  }

  /// Apple's parsed form of `items`, as the OS shows it before consent.
  static func appleRequest(
    retainingPortrait: Bool = true, chains: [[SecCertificate]] = [], issuerKeys: [Data] = []
  ) -> ISO18013MobileDocumentRequest {
    ISO18013MobileDocumentRequest(
      presentmentRequests: [
        .init(
          documentRequestSets: [
            .init(requests: [
              .init(
                documentType: "org.iso.18013.5.1.mDL",
                namespaces: [
                  "org.iso.18013.5.1": [
                    "family_name": .init(isRetaining: false),
                    "portrait": .init(isRetaining: retainingPortrait),
                  ]
                ],
                issuerKeyIdentifiers: issuerKeys)
            ])
          ], isMandatory: true)
      ],
      requestAuthentications: chains.map { .init(authenticationCertificateChain: $0) })
  }

  /// A context that shows `shown` and releases `raw` (as type `type`) inside `sendResponse`.
  func context(
    shown: ISO18013MobileDocumentRequest = appleRequest(), raw: AnnexCRequest? = nil,
    type: IdentityDocumentWebPresentmentRawRequest.RequestType = .iso18013MobileDocument,
    origin: URL? = URL(string: ShadowWalletFixture.origin), presentment: ShadowPresentment
  ) -> ISO18013MobileDocumentRequestContext {
    ISO18013MobileDocumentRequestContext(
      shadowRequest: shown, requestingWebsiteOrigin: origin,
      rawRequest: IdentityDocumentWebPresentmentRawRequest(
        requestType: type,
        requestData: Data((raw ?? rawRequest()).data.serialized().utf8)),
      presentment: presentment)
  }

  static func certificate(_ certificate: Certificate) throws -> SecCertificate {
    guard
      let made = SecCertificateCreateWithData(nil, Data(certificate.derBytes) as CFData)
    else { throw ShadowFixtureError() }
    return made
  }
}

struct ShadowFixtureError: Error {}
