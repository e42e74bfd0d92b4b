import DCCrypto
import DCJSON
import DCOpenID4VP
import DCOrgIsoMdoc
import Foundation

// How a DC API transaction is written to a database row (SQLite or PostgreSQL) and read back on
// any instance: the state of each request sent, private keys included (the row is as secret as
// the keys: the SQLite file is 0600; a PostgreSQL database is the deployment's to protect). The
// JSON shape is this package's own, versioned with the stores' schema; a row that does not read
// back is `.corruptRecord`, never a crash.

extension DigitalCredentialTransactionStore.Entry {
  /// Everything but `answered`, which lives in its own column.
  var storedBody: JSONValue {
    var members: [(key: String, value: JSONValue)] = [
      ("id", .string(id)), ("expires_at", .number(expiresAt.timeIntervalSince1970)),
    ]
    if let annexC {
      // The request data as sent (deviceRequest, encryptionInfo), the origin and the HPKE key:
      // what `AnnexCVerifier.State(sentRequest:origin:recipientPrivateKey:)` reads back.
      members.append(
        (
          "annex_c",
          .object([
            ("origin", .string(annexC.origin)), ("request", annexC.request.data),
            ("recipient_key", .string(annexC.recipientPrivateKey.pemRepresentation)),
          ])
        ))
    }
    let states = openID4VP.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value.json)
    if !states.isEmpty { members.append(("openid4vp", .array(states))) }
    if let crossDeviceID { members.append(("cross_device_id", .string(crossDeviceID))) }
    return .object(members)
  }

  /// A transaction read back from its stored body and its `answered` column.
  init(storedBody body: JSONValue, answered: Bool) throws(PresentationStoreError) {
    guard let id = body["id"]?.string, let expires = body["expires_at"]?.double else {
      throw .corrupt("a stored DC API transaction lacks its id or expiry")
    }
    self.init(id: id, expiresAt: Date(timeIntervalSince1970: expires))
    if let annexC = body["annex_c"] {
      guard let origin = annexC["origin"]?.string, let request = annexC["request"],
        let pem = annexC["recipient_key"]?.string
      else { throw .corrupt("a stored Annex C request lacks a member") }
      do {
        self.annexC = try AnnexCVerifier.State(
          sentRequest: request, origin: origin,
          recipientPrivateKey: try ECPrivateKey(pemRepresentation: pem))
      } catch {
        throw .corrupt("a stored Annex C request does not read back: \(error)")
      }
    }
    for json in body["openid4vp"]?.array ?? [] {
      do {
        let state = try VerifierState(json: json)
        openID4VP[state.protocolID] = state
      } catch {
        throw .corrupt("a stored OpenID4VP request does not read back: \(error.reason)")
      }
    }
    crossDeviceID = body["cross_device_id"]?.string
    self.answered = answered
  }

  /// A transaction from a row's body text and `answered` flag.
  init(stored body: String?, answered: Bool) throws(PresentationStoreError) {
    guard let body, let json = try? JSONValue(parsing: Array(body.utf8)) else {
      throw .corrupt("a DC API transaction row is not JSON")
    }
    try self.init(storedBody: json, answered: answered)
  }
}
