import CryptoPrimitives
import Foundation
import JOSE
import JSON
import Mdoc
import SDJWT

extension CredentialIssuerService {
  /// Issues one credential of `credential` bound to `key`, in its wire form (OpenID4VCI 1.0
  /// Appendix A): for `mso_mdoc` the base64url of the `IssuerSigned` CBOR (A.2.4), with the key
  /// as the MSO's `deviceKey`; for `dc+sd-jwt` the SD-JWT with the key as `cnf.jwk` (A.3.4,
  /// SD-JWT VC §3.2.2.2).
  func mint(_ credential: IssuableCredential, boundTo key: JWK) throws(IssuerEndpointFailure)
    -> JSONValue
  {
    let holderKey: ECPublicKey
    do {
      holderKey = try key.publicKey()
    } catch {
      throw .invalidProof("the proof's key is not a usable EC public key")
    }
    let now = self.now
    let until = now.addingTimeInterval(credential.validity)
    switch credential.content {
    case .mdoc(let doctype, let nameSpaces):
      let issuer = MdocIssuer(
        signer: configuration.signer, certificateChain: configuration.certificateChain,
        random: random)
      do {
        let issued = try issuer.issue(
          docType: doctype, nameSpaces: nameSpaces, deviceKey: holderKey,
          validity: ValidityInfo(signed: now, validFrom: now, validUntil: until),
          decoyDigests: 2)
        return .string(Base64URL.encode(issued.bytes))
      } catch {
        throw IssuerEndpointFailure("server_error", "the mdoc could not be issued", status: 500)
      }
    case .sdJWT(let vct, let claims, let disclosable):
      let paths = disclosable ?? (claims.object ?? []).map { ClaimPath([.key($0.key)]) }
      let signing =
        configuration.sdJWTSigning
        ?? IssuerSigningIdentity(
          signer: configuration.signer, certificateChain: configuration.certificateChain)
      do {
        let sdJWT = try SDJWTIssuer.issue(
          claims: claims, selectivelyDisclosable: paths, decoys: 2, holderKey: holderKey,
          vct: vct, issuer: configuration.credentialIssuer.string, issuedAt: now,
          expiresAt: until, signer: signing.signer, x5c: signing.certificateChain,
          random: random)
        return .string(sdJWT.serialized)
      } catch {
        throw IssuerEndpointFailure(
          "server_error", "the SD-JWT VC could not be issued", status: 500)
      }
    }
  }
}
