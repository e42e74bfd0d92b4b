import DCHTTP
import DCTrust
import DCX509
import Foundation

/// `--crl FILE|URL` and `--crl-fail-closed` on the commands that check certificate chains
/// (issue 29): every chain the command validates (IACA to document signer, reader and verifier
/// certificates, SD-JWT VC issuers, status-list signers) is checked against the CRLs given
/// (RFC 5280 §6.3). The dispatcher reads them for every command whose spec lists them and runs
/// the command with the check in effect (``RevocationCheck/current``).
enum RevocationOptions {
  /// The options, appended to each chain-checking command's spec.
  static let options: [CommandSpec.Option] = [
    .value(
      "crl", "FILE|URL", repeating: true,
      "a CRL (RFC 5280, DER or PEM) to check every certificate chain against; a URL is fetched "
        + "(https, or http on loopback)"),
    .flag(
      "crl-fail-closed",
      "refuse a chain whose certificate names a CRL distribution point no --crl covers "
        + "(default: accept it and report the status unknown)"),
  ]

  /// The most bytes read from a CRL file or URL (`CertificateRevocationList.maximumLength`).
  static let limit = InputLimit(bytes: 4 * 1024 * 1024, kind: "a CRL")

  /// The check `arguments` ask for (their `--crl` and `--crl-fail-closed`), or nil without
  /// `--crl`. Options after `--` are not read.
  static func check(_ arguments: [String]) async throws -> RevocationCheck? {
    var sources: [String] = []
    var failClosed = false
    var index = 0
    while index < arguments.count, arguments[index] != "--" {
      let argument = arguments[index]
      if argument == "--crl", index + 1 < arguments.count {
        sources.append(arguments[index + 1])
        index += 1
      } else if argument.hasPrefix("--crl=") {
        sources.append(String(argument.dropFirst("--crl=".count)))
      } else if argument == "--crl-fail-closed" {
        failClosed = true
      }
      index += 1
    }
    guard !sources.isEmpty else { return nil }
    var crls: [CertificateRevocationList] = []
    for source in sources { crls.append(try await crl(source)) }
    return RevocationCheck(crls: crls, policy: failClosed ? .failClosed : .failOpen)
  }

  /// One CRL from a file, or fetched from an https URL (or http on loopback).
  static func crl(_ source: String) async throws -> CertificateRevocationList {
    let lowered = source.lowercased()
    if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
      let client = URLSessionHTTPClient(
        configuration: .init(policy: .development, maxResponseBytes: limit.bytes))
      let fetcher = CRLFetcher(httpClient: client, urlPolicy: .development)
      guard let crl = await fetcher.fetched(source) else {
        throw CommandFailure(
          "--crl \(source): \(await fetcher.failures[source] ?? "could not be fetched")")
      }
      return crl
    }
    do {
      return try CertificateRevocationList(derOrPEM: try Files.read(source, limit: limit))
    } catch let error as CertificateError {
      throw CommandFailure("\(source) is not a CRL: \(error.reason)")
    }
  }
}
