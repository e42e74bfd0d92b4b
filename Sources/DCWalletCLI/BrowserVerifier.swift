import DCAPI
import DCHTTP
import DCOpenID4VP
import DCVerifier
import DCWallet
import DCX509
import Foundation

/// `verifier serve`'s web side (issue 30): the DC API verifier for the page's origin, its
/// flags, and the English the page shows (check sentences, the QR code as SVG).
enum BrowserVerifier {
  /// The handler serving the page, the browser module and the DC API endpoints, the other paths
  /// going to `redirect` (the cross-device fallback runs on `crossDevice`).
  static func handler(
    _ args: ParsedArguments, origin: WebOrigin,
    signers: (san: RequestSigner?, hash: RequestSigner?), crossDevice: PresentationVerifier,
    redirect: PresentationVerifierHTTPHandler, status: StatusChecking,
    anchors: (mdoc: [Certificate], sdJWT: [Certificate]), _ context: CommandContext
  ) throws -> DigitalCredentialVerifierHTTPHandler {
    let protocols = try dcAPIProtocols(args)
    let registration = try RegistrationCertificateFile.read(args)
    var reader = try reader(args, needed: protocols.contains(.orgIsoMdoc), context)
    if let registration, let credentials = reader {
      // ISO 18013-5 / ETSI TS 119 475: euWrprc in each ItemsRequest, under readerAuth.
      reader = AnnexCVerifier.ReaderCredentials(
        signer: credentials.signer, chain: credentials.chain,
        registrationCertificate: registration)
    }
    var configuration = DigitalCredentialVerifierConfiguration(
      origin: origin, protocols: protocols, signer: signers.san ?? signers.hash,
      multisigners: [signers.san, signers.hash].compactMap { $0 }, reader: reader,
      sdJWTIssuerAnchors: anchors.sdJWT, mdocIssuerAnchors: anchors.mdoc, status: status,
      revocation: context.revocation)
    configuration.registrationCertificate = registration
    var page: String? = nil
    if let path = args.value("page") {
      page = String(decoding: try Files.read(path, limit: .request), as: UTF8.self)
    }
    return DigitalCredentialVerifierHTTPHandler(
      verifier: DigitalCredentialVerifier(configuration: configuration, crossDevice: crossDevice),
      redirect: redirect, page: page,
      render: { DigitalCredentialReport.json($0, checkText: VerificationCheckText.sentence) },
      qrCode: { try? QRText.svg($0) })
  }

  /// `--dc-api-protocol`, each a registered DC API protocol identifier; default all four.
  static func dcAPIProtocols(_ args: ParsedArguments) throws -> [DigitalCredentialProtocol] {
    let offered: [DigitalCredentialProtocol] = [
      .orgIsoMdoc, .openID4VPSigned, .openID4VPMultisigned, .openID4VPUnsigned,
    ]
    let names = args.all("dc-api-protocol")
    guard !names.isEmpty else { return offered }
    return try names.map { name in
      guard let value = DigitalCredentialProtocol(rawValue: name), offered.contains(value) else {
        throw UsageError(
          "--dc-api-protocol must be one of \(offered.map(\.rawValue).joined(separator: ", "))",
          command: VerifierServeCommand.serveSpec.path)
      }
      return value
    }
  }

  /// `--reader-key` and `--reader-cert`, else `reader-key.pem` and `reader.pem` beside the
  /// signer key (without `--signer-key`: in the wallet home, else the current directory) when
  /// both are there, as `dcwallet dev files` writes them; nil without them.
  static func reader(_ args: ParsedArguments, needed: Bool, _ context: CommandContext) throws
    -> AnnexCVerifier.ReaderCredentials?
  {
    guard needed, !args.flag("no-reader-auth") else { return nil }
    if let key = args.value("reader-key") {
      guard let cert = args.value("reader-cert") else {
        throw UsageError(
          "--reader-key needs --reader-cert", command: VerifierServeCommand.serveSpec.path)
      }
      return AnnexCVerifier.ReaderCredentials(
        signer: try Inputs.privateKey(key), chain: try Inputs.certificates([cert]))
    }
    let directories =
      try args.value("signer-key").map { [LocalPath.parent(of: try Files.absolute($0))] }
      ?? [try context.home().directory, FileManager.default.currentDirectoryPath]
    for directory in directories {
      let key = LocalPath.appending("reader-key.pem", to: directory)
      let cert = LocalPath.appending("reader.pem", to: directory)
      if FileManager.default.fileExists(atPath: key), FileManager.default.fileExists(atPath: cert) {
        return AnnexCVerifier.ReaderCredentials(
          signer: try Inputs.privateKey(key), chain: try Inputs.certificates([cert]))
      }
    }
    return nil
  }
}

extension QRText {
  /// The text's QR code as an SVG image: libqrencode's modules (``matrix(_:)``) as one path of
  /// unit squares, dark on white, with the 4-module quiet zone (ISO/IEC 18004 §6.3.8).
  static func svg(_ text: String) throws -> String {
    let modules = try matrix(text)
    let quiet = 4
    let size = modules.count + 2 * quiet
    var path = ""
    for (row, line) in modules.enumerated() {
      for (column, dark) in line.enumerated() where dark {
        path += "M\(column + quiet) \(row + quiet)h1v1h-1z"
      }
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" \
      width="\(size * 8)" height="\(size * 8)" shape-rendering="crispEdges">\
      <rect width="\(size)" height="\(size)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
      """
  }
}
