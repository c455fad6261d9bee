// swift-tools-version: 6.0
import PackageDescription

// A large release executable for Tools/bench-dump: it statically links swift-nio, swift-crypto
// and swift-protobuf (with their C code) and is built with DWARF (`-g`), like a real service.
let package = Package(
    name: "LargeExecutable",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.28.0"),
    ],
    targets: [
        .executableTarget(
            name: "LargeExecutable",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
