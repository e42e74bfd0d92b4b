import DCCrypto
import DCEncoding
import DCJOSE
import DCJSON
import DCMdoc
import DCOpenID4VCI
import DCSDJWT
import DCStatusList
import Foundation

extension CredentialIssuerService {
  /// Gives the credential `credentialID` an index in a status list when the issuer keeps status
  /// lists (``IssuerConfiguration/statusLists``); nil when it does not.
  func assignStatus(credentialID: String, configurationID: String)
    throws(IssuerEndpointFailure) -> StatusReference?
  {
    guard let settings = configuration.statusLists else { return nil }
    do {
      let record = try store.assignStatusIndex(
        credentialID: credentialID, configurationID: configurationID, settings: settings,
        now: now, random: random)
      return StatusReference(
        index: record.index, uri: endpoints.statusListURL(id: record.listID).absoluteString)
    } catch {
      throw IssuerEndpointFailure("server_error", "the issuer's state is unavailable", status: 500)
    }
  }

  /// Issues one credential of `credential` bound to `key`, in its wire form (OpenID4VCI 1.0
  /// Appendix A): for `mso_mdoc` the base64url of the `IssuerSigned` CBOR (A.2.4), with the key
  /// as the MSO's `deviceKey`; for `dc+sd-jwt` the SD-JWT with the key as `cnf.jwk` (A.3.4,
  /// SD-JWT VC §3.2.2.2). With a `status` reference the SD-JWT VC carries the always disclosed
  /// claim `status: {status_list: {idx, uri}}` (draft-ietf-oauth-status-list, "Referenced Token
  /// in JOSE"; SD-JWT VC §3.2.2.2 lists `status` among the claims not selectively disclosed) and
  /// the mdoc's MSO the member `status: {status_list: {idx, uri}}` (ISO 18013-5 second edition).
  func mint(_ credential: IssuableCredential, boundTo key: JWK, status: StatusReference? = nil)
    throws(IssuerEndpointFailure) -> JSONValue
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
          decoyDigests: 2, status: status?.msoStatus)
        return .string(Base64URL.encode(issued.bytes))
      } catch {
        throw IssuerEndpointFailure("server_error", "the mdoc could not be issued", status: 500)
      }
    case .sdJWT(let vct, let claims, let disclosable):
      let paths = disclosable ?? (claims.object ?? []).map { ClaimPath([.key($0.key)]) }
      var claims = claims
      if let status { claims = claims.setting("status", to: status.sdJWTStatusClaim) }
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
