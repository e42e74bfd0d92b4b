public import DCCBOR
package import DCCOSE
public import DCCrypto
public import DCX509
public import Foundation

/// Who signed a request, and whether the wallet trusts them (ISO 18013-5 §9.1.4).
public struct ReaderIdentity: Sendable, Hashable {
  /// The reader certificate (the x5chain leaf).
  public let certificate: Certificate
  /// The presented chain, leaf first.
  public let chain: [Certificate]
  /// Whether the chain reaches a configured reader anchor under the reader profile.
  public let trust: ChainTrust

  /// The reader's readable name: the subject CN, else the whole subject.
  public var name: String { certificate.subject.commonName ?? certificate.subject.description }

  /// The authority key identifier of the reader certificate (what iOS and Android reader gating
  /// match on).
  package var authorityKeyIdentifier: [UInt8]? { certificate.authorityKeyIdentifier }
}

/// Builds and checks reader authentication (ISO 18013-5 §9.1.4).
package enum ReaderAuthentication {

  /// The context strings that open the signed arrays, named once (ISO 18013-5 §9.1.4; the
  /// second edition adds `ReaderAuthenticationAll`).
  enum Keys {
    static let readerAuthentication = "ReaderAuthentication"
    static let readerAuthenticationAll = "ReaderAuthenticationAll"
  }

  /// `ReaderAuthenticationBytes = #6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript,
  /// ItemsRequestBytes])`.
  package static func bytes(sessionTranscript: SessionTranscript, itemsRequestBytes: EncodedCBOR)
    -> [UInt8]
  {
    // Written directly: the transcript and ItemsRequestBytes are spliced as kept.
    CBORWriter.tag24(
      capacity: sessionTranscript.bytes.count + itemsRequestBytes.bytes.count + 40
    ) { writer in
      writer.arrayHead(count: 3)
      writer.text(Keys.readerAuthentication)
      writer.encoded(sessionTranscript.bytes)
      writer.tag24(itemsRequestBytes.bytes)
    }
  }

  /// `ReaderAuthenticationAllBytes = #6.24(bstr .cbor ["ReaderAuthenticationAll",
  /// SessionTranscript, [+ ItemsRequestBytes], DeviceRequestInfoBytes / null])` (18013-5 2nd ed.).
  package static func allBytes(
    sessionTranscript: SessionTranscript, itemsRequests: [EncodedCBOR],
    deviceRequestInfo: EncodedCBOR?,
    includeInfoMember: Bool = true
  ) -> [UInt8] {
    var members: [CBOR] = [
      .textString(Keys.readerAuthenticationAll), sessionTranscript.cbor,
      .array(itemsRequests.map(\.tag24)),
    ]
    if includeInfoMember { members.append(deviceRequestInfo?.tag24 ?? .null) }
    return EncodedCBOR(mdoc: .array(members)).tag24.encoded()
  }

  /// Signs a detached payload as a reader, with the chain in x5chain (unprotected, §9.1.4).
  package static func sign(payload: [UInt8], signer: any Signer, chain: [Certificate])
    throws(MdocError) -> COSESign1
  {
    do {
      return try COSESign1.sign(
        payload: payload, detached: true,
        unprotected: [COSEHeaderLabel.x5chain: COSEHeaders.x5chainValue(chain.map(\.derBytes))],
        signer: signer)
    } catch {
      throw MdocError(.signingFailed, "readerAuth: \(error.reason)", underlying: error)
    }
  }

  /// Verifies one reader signature over its detached payload, then judges its chain.
  ///
  /// - Returns: the reader identity, trusted or untrusted.
  /// - Throws: `invalidReaderSignature` when the signature does not verify or has no usable
  ///   certificate: such a request must be refused.
  package static func verify(
    _ readerAuth: COSESign1, payload: [UInt8], trustAnchors: [Certificate], at now: Date
  ) throws(MdocError) -> ReaderIdentity {
    let chain = try readerAuth.x5chainCertificates(
      failing: .invalidReaderSignature, label: "readerAuth",
      certificateLabel: "readerAuth certificate")
    guard let key = chain[0].publicKey.ecPublicKey else {
      throw MdocError(.invalidReaderSignature, "reader key is \(chain[0].publicKey), not EC")
    }
    do {
      try readerAuth.verify(publicKey: key, detachedPayload: payload)
    } catch {
      throw MdocError(
        .invalidReaderSignature, "readerAuth by \(chain[0].subject): \(error.reason)",
        underlying: error)
    }
    let trust: ChainTrust
    switch CertificateValidator(
      trustAnchors: trustAnchors, policy: .mdocReaderAuthentication, revocation: .current
    )
    .validate(chain: chain, at: now)
    {
    case .trusted(let path): trust = .trusted(path)
    case .untrusted(let reason), .malformed(let reason): trust = .untrusted(reason: reason)
    }
    return ReaderIdentity(certificate: chain[0], chain: chain, trust: trust)
  }
}

extension DocRequest {
  /// A doc request signed by a reader for one session: `readerAuth` is a COSE_Sign1 with a
  /// detached payload, the ReaderAuthenticationBytes over `sessionTranscript` and this request's
  /// ItemsRequestBytes, with `readerChain` in the unprotected x5chain (ISO 18013-5 §9.1.4).
  ///
  /// - Parameters:
  ///   - itemsRequest: the elements requested.
  ///   - sessionTranscript: the session the signature is bound to.
  ///   - readerKey: the reader's private key, or hardware key.
  ///   - readerChain: the reader certificate first, then any intermediates.
  /// - Throws: `signingFailed` when the key cannot sign.
  public init(
    itemsRequest: ItemsRequest, sessionTranscript: SessionTranscript, readerKey: any Signer,
    readerChain: [Certificate]
  ) throws(MdocError) {
    let itemsRequestBytes = DocRequest(itemsRequest: itemsRequest).itemsRequestBytes
    let readerAuth = try ReaderAuthentication.sign(
      payload: ReaderAuthentication.bytes(
        sessionTranscript: sessionTranscript, itemsRequestBytes: itemsRequestBytes),
      signer: readerKey, chain: readerChain)
    self.init(
      itemsRequestBytes: itemsRequestBytes, itemsRequest: itemsRequest, readerAuth: readerAuth)
  }
}

/// The result of checking a DeviceRequest's reader authentication (§9.1.4): per doc request,
/// the reader that signed it (or nil when unsigned), and the readerAuthAll signer if any.
public struct RequestAuthentication: Sendable, Hashable {
  /// The identity proven by readerAuthAll, when present.
  public let readerAuthAll: ReaderIdentity?
  /// Per doc request: the identity proven by its own readerAuth, or by readerAuthAll.
  public let perDocRequest: [ReaderIdentity?]
}

extension DeviceRequest {
  /// Verifies every readerAuth and readerAuthAll against this session's transcript.
  ///
  /// An invalid signature throws (the request must be refused); an unknown chain is reported
  /// as `untrusted` and left to the caller's policy.
  public func authenticateReader(
    sessionTranscript: SessionTranscript, trustAnchors: [Certificate], at now: Date
  ) throws(MdocError) -> RequestAuthentication {
    var allIdentity: ReaderIdentity?
    for (index, signature) in readerAuthAll.enumerated() {
      // Readers sign the 4-member structure of the second edition; early implementations signed
      // it without the DeviceRequestInfo member, so that form is accepted too.
      var lastError: MdocError?
      for includeInfo in [true, false] {
        let payload = ReaderAuthentication.allBytes(
          sessionTranscript: sessionTranscript, itemsRequests: docRequests.map(\.itemsRequestBytes),
          deviceRequestInfo: deviceRequestInfo, includeInfoMember: includeInfo)
        do {
          let identity = try ReaderAuthentication.verify(
            signature, payload: payload, trustAnchors: trustAnchors, at: now)
          if allIdentity == nil || (!allIdentity!.trust.isTrusted && identity.trust.isTrusted) {
            allIdentity = identity
          }
          lastError = nil
          break
        } catch {
          lastError = error
        }
      }
      if let lastError {
        throw MdocError(
          lastError.code, "readerAuthAll[\(index)]: \(lastError.reason)", underlying: lastError)
      }
    }
    var perDoc: [ReaderIdentity?] = []
    for (index, docRequest) in docRequests.enumerated() {
      guard let readerAuth = docRequest.readerAuth else {
        perDoc.append(allIdentity)
        continue
      }
      let payload = ReaderAuthentication.bytes(
        sessionTranscript: sessionTranscript, itemsRequestBytes: docRequest.itemsRequestBytes)
      do {
        perDoc.append(
          try ReaderAuthentication.verify(
            readerAuth, payload: payload, trustAnchors: trustAnchors, at: now))
      } catch {
        throw MdocError(
          error.code, "docRequests[\(index)].readerAuth: \(error.reason)", underlying: error)
      }
    }
    return RequestAuthentication(readerAuthAll: allIdentity, perDocRequest: perDoc)
  }
}
