import Foundation

@testable import DCWalletCLI

#if os(Linux)
  /// A wallet home, an issuer config in its own directory (`issuerConfig` is its JSON), and the
  /// development issuer serving that state in this process, sharing the CLI's state directory:
  /// the set-up of the issuer command tests (`IssueBinaryTests`, `IssuerStatusBinaryTests`).
  struct IssuerWalletHome {
    let cli: DCWallet
    let config: String
    let issuer: LoopbackIssuer

    init(issuerConfig: String) throws {
      cli = try DCWallet()
      config = try cli.file("issuer-config.json", issuerConfig)
      let context = CommandContext(
        console: .capturing(), homeOverride: cli.home, environment: [:])
      let state = try StateDirectory(config: config, context: context)
      issuer = try LoopbackIssuer(settings: try state.settings(), state: state)
    }
  }
#endif
