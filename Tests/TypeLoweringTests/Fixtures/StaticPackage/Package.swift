// swift-tools-version: 6.0
// A release executable that statically links real packages (swift-argument-parser and
// swift-collections, from the machine's package mirrors) and the Swift runtime: read from disk by
// the computed-layout tests, then asked for its own layouts (see Sources/StaticFixture/main.swift).
import PackageDescription

let mirrors = "/opt/swift-packages/apple/"
let package = Package(
    name: "StaticFixture",
    dependencies: [
        .package(url: mirrors + "swift-argument-parser.git", from: "1.5.0"),
        .package(url: mirrors + "swift-collections.git", from: "1.1.0"),
    ],
    targets: [
        .executableTarget(
            name: "StaticFixture",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "DequeModule", package: "swift-collections"),
            ])
    ]
)
