// swift-tools-version: 6.0
// A server-shaped load fixture, built by the tests exactly as users build servers:
// `swift build -c release`, plain and with `--static-swift-stdlib`, no other flags.
import PackageDescription

let package = Package(
    name: "LoadServer",
    targets: [.executableTarget(name: "LoadServer", swiftSettings: [.swiftLanguageMode(.v5)])]
)
