import Foundation

/// One fuzz target: a name (also the corpus folder, `fuzz/corpus/<name>/`) and the function run on
/// every input. A target returns normally when the input is refused with a typed error; it calls
/// `violated(_:)` when an invariant (round trip, no trailing garbage) does not hold.
struct FuzzTarget: Sendable {
  let name: String
  let run: @Sendable ([UInt8]) -> Void
}

/// Every target, in the order `fuzz/run.sh` runs them.
let targets: [FuzzTarget] = [
  FuzzTarget(name: "cbor", run: fuzzCBOR),
  FuzzTarget(name: "der", run: fuzzDER),
  FuzzTarget(name: "pem", run: fuzzPEM),
  FuzzTarget(name: "cose-sign1", run: fuzzCOSESign1),
  FuzzTarget(name: "cose-key", run: fuzzCOSEKey),
  FuzzTarget(name: "device-request", run: fuzzDeviceRequest),
  FuzzTarget(name: "annexc-request", run: fuzzAnnexCRequest),
  FuzzTarget(name: "device-response", run: fuzzDeviceResponse),
  FuzzTarget(name: "encrypted-response", run: fuzzEncryptedResponse),
  FuzzTarget(name: "json", run: fuzzJSON),
  FuzzTarget(name: "jws", run: fuzzJWS),
  FuzzTarget(name: "jwe", run: fuzzJWE),
  FuzzTarget(name: "jws-json", run: fuzzJWSJSON),
  FuzzTarget(name: "sdjwt", run: fuzzSDJWT),
  FuzzTarget(name: "dcql", run: fuzzDCQL),
  FuzzTarget(name: "openid4vp-request", run: fuzzOpenID4VPRequest),
  FuzzTarget(name: "request-envelope", run: fuzzRequestEnvelope),
  FuzzTarget(name: "android-registry", run: fuzzAndroidRegistry),
  FuzzTarget(name: "vci-offer", run: fuzzVCIOffer),
  FuzzTarget(name: "vci-metadata", run: fuzzVCIMetadata),
  FuzzTarget(name: "vci-issuer", run: fuzzVCIIssuer),
  FuzzTarget(name: "vci-token-response", run: fuzzVCITokenResponse),
  FuzzTarget(name: "vci-credential-response", run: fuzzVCICredentialResponse),
  FuzzTarget(name: "vci-authorization-response", run: fuzzVCIAuthorizationResponse),
  FuzzTarget(name: "vci-token-request", run: fuzzVCITokenRequest),
  FuzzTarget(name: "vci-credential-request", run: fuzzVCICredentialRequest),
  FuzzTarget(name: "vci-dpop", run: fuzzVCIDPoP),
  FuzzTarget(name: "vci-key-proof", run: fuzzVCIKeyProof),
  FuzzTarget(name: "vci-attestation", run: fuzzVCIAttestation),
  FuzzTarget(name: "device-engagement", run: fuzzDeviceEngagement),
  FuzzTarget(name: "mdoc-uri", run: fuzzMdocURI),
  FuzzTarget(name: "session-establishment", run: fuzzSessionEstablishment),
  FuzzTarget(name: "session-data", run: fuzzSessionData),
  FuzzTarget(name: "nfc-handover", run: fuzzNFCHandover),
  FuzzTarget(name: "ble-reassembly", run: fuzzBLEReassembly),
  FuzzTarget(name: "tcp-frames", run: fuzzTCPFrames),
  FuzzTarget(name: "status-list-jwt", run: fuzzStatusListJWT),
  FuzzTarget(name: "status-list-cwt", run: fuzzStatusListCWT),
  FuzzTarget(name: "status-list-zlib", run: fuzzStatusListZlib),
  FuzzTarget(name: "openid4vp-uri", run: fuzzOpenID4VPURI),
  FuzzTarget(name: "openid4vp-request-object", run: fuzzOpenID4VPRequestObject),
  FuzzTarget(name: "direct-post-body", run: fuzzDirectPostBody),
  FuzzTarget(name: "lote", run: fuzzLoTE),
  FuzzTarget(name: "tsl", run: fuzzTSL),
  FuzzTarget(name: "wrprc", run: fuzzWRPRC),
  FuzzTarget(name: "wrprc-payload", run: fuzzWRPRCPayload),
]

/// Stops the process with a message libFuzzer records as a crash, with the input saved.
func violated(_ message: @autoclosure () -> String) -> Never {
  FileHandle.standardError.write(Data("invariant violated: \(message())\n".utf8))
  abort()
}

/// The target named by `FUZZ_TARGET`, chosen once.
let selected: FuzzTarget = {
  let environment = ProcessInfo.processInfo.environment
  if environment["FUZZ_LIST"] != nil {
    print(targets.map(\.name).joined(separator: "\n"))
    exit(0)
  }
  guard let name = environment["FUZZ_TARGET"],
    let target = targets.first(where: { $0.name == name })
  else {
    FileHandle.standardError.write(
      Data("set FUZZ_TARGET to one of: \(targets.map(\.name).joined(separator: " "))\n".utf8))
    exit(2)
  }
  return target
}()

/// libFuzzer's driver (compiler-rt `FuzzerInterface.h`), used because SwiftPM links an executable
/// target's entry point as `<module>_main`, which libFuzzer's own `main` cannot provide.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("dcfuzz_main")
public func fuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  _ = selected
  var argc = argc
  var argv = argv
  return runDriver(&argc, &argv) { data, size in
    selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
  }
}

/// The input as UTF-8 text, or nil (text parsers take `String`; invalid UTF-8 would be repaired).
func text(_ bytes: [UInt8]) -> String? {
  String(validating: bytes, as: UTF8.self)
}
