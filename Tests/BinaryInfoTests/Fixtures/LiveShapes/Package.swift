// swift-tools-version: 6.0
// Shapes of values and types that live reading must name and read truly, built by the tests as
// users build servers: `swift build -c release`, plain and with `--static-swift-stdlib`.
import PackageDescription

let package = Package(
    name: "LiveShapes",
    targets: [.executableTarget(name: "LiveShapes", swiftSettings: [.swiftLanguageMode(.v5)])]
)
