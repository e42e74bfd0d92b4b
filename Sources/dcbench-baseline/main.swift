// The peak-memory baseline for dcbench: a Swift program that only imports Foundation and does
// a trivial amount of work, measured the same way as `dcwallet respond`.
import Foundation

let formatter = ISO8601DateFormatter()
print(formatter.string(from: Date()))
