import DCWalletCLI
// dcwallet: the command-line wallet and verifier. All logic lives in WalletCLI (tested).
import Foundation

let code = await DCWalletCLI.run(Array(CommandLine.arguments.dropFirst()))
exit(code)
