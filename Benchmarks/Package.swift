// swift-tools-version: 6.0
import PackageDescription

// Benchmarks live in their own package so that the project's `swift test` never builds them.
// Run: swift run -c release --package-path Benchmarks <target>   (see docs/performance.md)
let package = Package(
    name: "typeinfo-benchmarks",
    dependencies: [
        .package(name: "typeinfo", path: "..")
    ],
    targets: [
        // Side-by-side timing: batches, medians, ratios (shared by every benchmark here).
        .target(name: "BenchmarkSupport"),
        .executableTarget(
            name: "TypeInfoBenchmarks",
            dependencies: ["BenchmarkSupport", .product(name: "TypeInfo", package: "typeinfo")]
        ),
        // ModelMapper vs JSONDecoder/JSONEncoder + Codable vs a hand-written floor (inputs in Data/).
        .executableTarget(
            name: "ModelMapperBenchmark",
            dependencies: [.product(name: "ModelMapper", package: "typeinfo")]
        ),
        // A target's images, class checks, names and fields (Tools/measure-target runs it on the LiveHeap fixture).
        .executableTarget(
            name: "TargetBenchmark",
            dependencies: [
                .product(name: "BinaryInfo", package: "typeinfo"), .product(name: "TypeLowering", package: "typeinfo"),
                // Built beside the benchmark, where TypeLowering looks for its worker.
                .product(name: "typeinfo-lowering", package: "typeinfo"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
