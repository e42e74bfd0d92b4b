package import DCCrypto
package import DCJOSE
package import DCJSON

/// The `client_metadata` request parameter, as far as the DC API flow uses it (OpenID4VP 1.0
/// §5.1, §11.1).
package struct ClientMetadata: Sendable, Hashable {
  /// The object as received; empty when the request had none.
  package let json: JSONValue
  /// The keys of `jwks` that parse as EC JWKs (RFC 7517); other keys are skipped (OpenID4VP 1.0
  /// §5.1: the set may hold keys for other purposes).
  package let jwks: [JWK]
  /// `encrypted_response_enc_values_supported`, default `["A128GCM"]` (OpenID4VP 1.0 §5.1).
  package let encryptedResponseEncValuesSupported: [String]
  /// `vp_formats_supported`, when present (OpenID4VP 1.0 §11.1).
  package let vpFormatsSupported: JSONValue?

  /// Reads `client_metadata`; a wrongly typed member is `invalidRequest` (OpenID4VP 1.0 §5.1).
  package init(json: JSONValue?) throws(OpenID4VPError) {
    let json = json ?? .object([])
    guard case .object = json else {
      throw OpenID4VPError(.invalidRequest, "client_metadata must be an object")
    }
    self.json = json
    var keys: [JWK] = []
    if let jwks = json["jwks"] {
      guard let list = jwks["keys"]?.array else {
        throw OpenID4VPError(.invalidRequest, "client_metadata.jwks must have a keys array")
      }
      for key in list {
        if let parsed = try? JWK(json: key) { keys.append(parsed) }
      }
    }
    jwks = keys
    if let values = json["encrypted_response_enc_values_supported"] {
      guard let array = values.array, !array.isEmpty else {
        throw OpenID4VPError(
          .invalidRequest, "encrypted_response_enc_values_supported must be a non-empty array")
      }
      var strings: [String] = []
      for value in array {
        guard let string = value.string else {
          throw OpenID4VPError(
            .invalidRequest, "encrypted_response_enc_values_supported must hold strings")
        }
        strings.append(string)
      }
      encryptedResponseEncValuesSupported = strings
    } else {
      encryptedResponseEncValuesSupported = [JWEEncryption.a128gcm.rawValue]
    }
    if let formats = json["vp_formats_supported"] {
      guard case .object = formats else {
        throw OpenID4VPError(.invalidRequest, "vp_formats_supported must be an object")
      }
    }
    vpFormatsSupported = json["vp_formats_supported"]
  }

  /// Chooses the key and content encryption for `dc_api.jwt` (OpenID4VP 1.0 §8.3): the first
  /// EC P-256 public key meant for encryption (`use` `enc` or absent, `alg` `ECDH-ES` or
  /// absent); keys of another type, curve, use or algorithm are passed over, not refused. The
  /// `enc` is `A256GCM` when offered (HAIP 1.0 §5), otherwise the first offered value this
  /// module supports.
  ///
  /// - Throws: `noEncryptionKey`, `unsupportedEncryption`.
  package func responseEncryption() throws(OpenID4VPError) -> ResponseEncryption {
    guard
      let key = jwks.first(where: {
        $0.crv == .p256 && !$0.isPrivate && ($0.use == nil || $0.use == "enc")
          && ($0.alg == nil || $0.alg == JWEAlgorithm.ecdhES.rawValue)
      })
    else {
      throw OpenID4VPError(
        .noEncryptionKey, "client_metadata.jwks has no P-256 ECDH-ES key for encryption")
    }
    let offered = encryptedResponseEncValuesSupported.compactMap(JWEEncryption.init)
    // §8.3 leaves the choice to the wallet; HAIP 1.0 §5: a wallet that supports both uses
    // A256GCM. Otherwise the verifier's order.
    guard let enc = offered.contains(.a256gcm) ? .a256gcm : offered.first else {
      throw OpenID4VPError(
        .unsupportedEncryption,
        "none of \(encryptedResponseEncValuesSupported) is supported (A128GCM, A256GCM)")
    }
    let publicKey: ECPublicKey
    do {
      publicKey = try key.publicKey()
    } catch {
      throw OpenID4VPError(.noEncryptionKey, "client_metadata.jwks: \(error.reason)")
    }
    return ResponseEncryption(key: key, enc: enc, publicKey: publicKey)
  }
}

/// How a `dc_api.jwt` response is encrypted: the verifier's key and the content encryption
/// (OpenID4VP 1.0 §8.3).
package struct ResponseEncryption: Sendable, Hashable {
  /// The verifier's public encryption key from `client_metadata.jwks`.
  package let key: JWK
  /// The content encryption algorithm (`enc`).
  package let enc: JWEEncryption

  /// ``key`` as a validated public key, converted once when the request is read.
  package let publicKey: ECPublicKey
  /// The RFC 7638 SHA-256 thumbprint of ``key``, bound into the mdoc handover (OpenID4VP 1.0
  /// §B.2.6.2); computed when asked, since only mdoc presentations need it.
  package var jwkThumbprint: [UInt8] { key.thumbprint() }
}
