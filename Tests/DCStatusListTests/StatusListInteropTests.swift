import DCCrypto
import DCEncoding
import DCJSON
import DCStatusList
import DCTestSupport
import DCX509
import DCX509TestSupport
import Foundation
import Testing

/// Our tokens checked by implementations we did not write, and theirs read by us:
/// token-status-list (Daniel Bluhm's Python implementation of the draft's `BitArray`), Python's
/// zlib, joserfc for the JWS, cbor2 + pycose for the COSE_Sign1, cryptography for the x5c leaf.
@Suite("Token Status List interop with Python peers")
struct StatusListInteropTests {
  static let prelude = """
    import sys, json, zlib, base64
    import cbor2
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from token_status_list import BitArray
    args = json.loads(sys.stdin.read())
    h = bytes.fromhex
    leaf = x509.load_der_x509_certificate(h(args["leaf"]))
    pem = leaf.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    """

  static func sampleList(_ bits: StatusList.Bits) throws -> StatusList {
    var list = StatusList(bits: bits, count: 4096)
    for index in stride(from: 0, to: 4096, by: 13) {
      try list.setStatus(Status(rawValue: UInt8(index % (Int(bits.maximumValue) + 1))), at: index)
    }
    return list
  }

  static func token(_ format: StatusListToken.Format, list: StatusList, pki: TestPKI) throws
    -> StatusListToken
  {
    try StatusListToken(
      format: format, subject: "https://issuer.example/statuslists/7", issuedAt: pki.clock,
      expiresAt: pki.clock + 3600, timeToLive: 300, statusList: list,
      certificateChain: [pki.documentSigner.derBytes], signer: pki.dsKey)
  }

  static func input(_ token: StatusListToken, _ list: StatusList, pki: TestPKI) -> String {
    let statuses = list.statuses.map { "\($0.rawValue)" }.joined(separator: ",")
    return """
      {"token": "\(Hex.encode(token.encoded))", "leaf": "\(Hex.encode(pki.documentSigner.derBytes))",
       "statuses": [\(statuses)]}
      """
  }

  @Test(
    "joserfc + token-status-list read our JWT", .pythonPeers,
    arguments: StatusList.Bits.allCases)
  func peersReadOurJWT(bits: StatusList.Bits) throws {
    try PythonPeer.require("peers read our status list JWT")
    let pki = try TestPKI()
    let list = try Self.sampleList(bits)
    let token = try Self.token(.jwt, list: list, pki: pki)
    let script =
      Self.prelude + """

        from joserfc import jws
        from joserfc.jwk import ECKey
        registry = jws.JWSRegistry()
        registry.max_header_length = 16384  # the x5c header is longer than joserfc's 512 default
        registry.max_payload_length = 1 << 22
        obj = jws.deserialize_compact(
            h(args["token"]).decode(), ECKey.import_key(pem), registry=registry)
        assert obj.protected["typ"] == "statuslist+jwt", obj.protected
        assert obj.protected["alg"] == "ES256"
        claims = json.loads(obj.payload)
        assert claims["sub"] == "https://issuer.example/statuslists/7"
        assert claims["ttl"] == 300 and claims["exp"] - claims["iat"] == 3600
        lst = claims["status_list"]["lst"]
        assert "=" not in lst
        raw = zlib.decompress(base64.urlsafe_b64decode(lst + "=" * (-len(lst) % 4)))
        assert raw[:2] != b"", "zlib"
        array = BitArray.load(claims["status_list"])
        got = [array.get(i) for i in range(len(array))]
        print(got == args["statuses"], len(got))
        """
    let out = try PythonPeer.run(script, input: Self.input(token, list, pki: pki))
    #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "True \(list.count)")
  }

  @Test(
    "cbor2 + pycose + token-status-list read our CWT", .pythonPeers,
    arguments: StatusList.Bits.allCases)
  func peersReadOurCWT(bits: StatusList.Bits) throws {
    try PythonPeer.require("peers read our status list CWT")
    let pki = try TestPKI()
    let list = try Self.sampleList(bits)
    let token = try Self.token(.cwt, list: list, pki: pki)
    let script =
      Self.prelude + """

        from pycose.messages import Sign1Message
        from pycose.keys import EC2Key
        from pycose.keys.curves import P256
        tag = cbor2.loads(h(args["token"]))
        assert tag.tag == 18
        protected = cbor2.loads(tag.value[0])
        assert protected[16] == "application/statuslist+cwt", protected
        assert protected[33] == h(args["leaf"])
        msg = Sign1Message.from_cose_obj([tag.value[0], dict(tag.value[1]), tag.value[2], tag.value[3]], True)
        nums = leaf.public_key().public_numbers()
        msg.key = EC2Key(crv=P256, x=nums.x.to_bytes(32, "big"), y=nums.y.to_bytes(32, "big"))
        assert msg.verify_signature()
        claims = cbor2.loads(tag.value[2])
        assert claims[2] == "https://issuer.example/statuslists/7"
        assert claims[65534] == 300 and claims[4] - claims[6] == 3600
        status_list = claims[65533]
        array = BitArray(status_list["bits"], zlib.decompress(status_list["lst"]))
        got = [array.get(i) for i in range(len(array))]
        print(got == args["statuses"], len(got))
        """
    let out = try PythonPeer.run(script, input: Self.input(token, list, pki: pki))
    #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "True \(list.count)")
  }

  @Test(
    "We read token-status-list's lists", .pythonPeers, arguments: StatusList.Bits.allCases)
  func weReadTheirs(bits: StatusList.Bits) throws {
    try PythonPeer.require("we read token-status-list's lists")
    let script = """
      import json, sys
      from token_status_list import BitArray
      bits = int(sys.stdin.read())
      array = BitArray.of_size(bits, 1024)
      for i in range(0, 1024, 5):
          array.set(i, (i * 7) % (array.max + 1))
      print(json.dumps({"list": array.dump(), "statuses": [array.get(i) for i in range(1024)]}))
      """
    let out = try PythonPeer.run(script, input: "\(bits.rawValue)")
    let json = try JSONValue(parsing: out)
    let list = try StatusList(
      bits: try StatusList.bits(try #require(json["list"]?["bits"]?.int)),
      compressed: try Base64URL.decode(try #require(json["list"]?["lst"]?.string)))
    let expected = try #require(json["statuses"]?.array).map {
      $0.int.flatMap(UInt8.init(exactly:))
    }
    #expect(list.count == 1024)
    #expect(list.statuses.map { Optional($0.rawValue) } == expected)
  }
}
