// swift-tools-version: 6.0
import PackageDescription

// Layers, lowest first. A target may import only targets above it in this list
// (docs/architecture.md explains why each arrow points the way it does).
let package = Package(
    name: "typeinfo",
    products: [
        .library(name: "TypeLayout", targets: ["TypeLayout"]),
        .library(name: "TypeInfo", targets: ["TypeInfo"]),
        .library(name: "BinaryInfo", targets: ["BinaryInfo"]),
        .library(name: "DWARFInfo", targets: ["DWARFInfo"]),
        .library(name: "TypeLowering", targets: ["TypeLowering"]),
        .library(name: "LayoutReading", targets: ["LayoutReading"]),
        .library(name: "LayoutTesting", targets: ["LayoutTesting"]),
        .library(name: "ModelMapper", targets: ["ModelMapper"]),
        .executable(name: "typeinfo", targets: ["typeinfo"]),
        .executable(name: "typeinfo-lowering", targets: ["typeinfo-lowering"]),
        .plugin(name: "LayoutCheckPlugin", targets: ["LayoutCheckPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // FileDescriptor: open, read, pread, write, fstat, each retried on EINTR in one place.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        // partitioningIndex(where:): the binary searches over sorted tables (sections, symbols, slots, DIEs).
        .package(url: "https://github.com/apple/swift-algorithms", from: "1.2.0"),
        // `swift package generate-documentation` for the DocC catalogs; builds nothing for `swift build`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Plain value types every layer speaks.
        .target(name: "TypeLayout"),

        // In-process metadata reading and the ClassInfo/PropertyInfo cache.
        .target(name: "TypeInfo", dependencies: ["TypeLayout"]),

        // System libraries, each wrapped by exactly one Swift module.
        .systemLibrary(name: "CLibElf", pkgConfig: "libelf", providers: [.apt(["libelf-dev"])]),
        .systemLibrary(name: "CLibDwarf", providers: [.apt(["libdwarf-dev"])]),
        // The four ptrace(2) requests that hold a process still for `--pause` (seize, interrupt,
        // continue, detach): none reads or writes the target.
        .target(name: "CPtrace"),

        // On-disk readers: they never execute the target.
        .target(
            name: "BinaryInfo",
            dependencies: [
                "TypeLayout", "CLibElf", "CPtrace", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Algorithms", package: "swift-algorithms"),
            ]
        ),
        .target(
            name: "DWARFInfo",
            dependencies: [
                "TypeLayout", "BinaryInfo", "CLibDwarf", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Algorithms", package: "swift-algorithms"),
            ]
        ),

        // Computed layouts: the toolchain's libswiftRemoteMirror (declared in CSwiftRemoteMirror,
        // loaded with dlopen), run in the typeinfo-lowering worker process so its crashes stay there.
        .systemLibrary(name: "CSwiftRemoteMirror"),
        // glibc's libthread_db (a target's threads and their thread-local variables), with the
        // proc_service callbacks it needs from the program that links it; used only in the worker.
        .target(name: "CThreadDB", linkerSettings: [.linkedLibrary("thread_db")]),
        .target(
            name: "TypeLowering",
            dependencies: [
                "TypeLayout", "BinaryInfo", "CSwiftRemoteMirror", "CThreadDB", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Algorithms", package: "swift-algorithms"),
            ]
        ),
        .executableTarget(name: "typeinfo-lowering", dependencies: ["TypeLowering"]),

        // The one entry point every command reads a file through: metadata, computed layouts and
        // DWARF merged once, with the type selection reaching the readers.
        .target(name: "LayoutReading", dependencies: ["TypeLayout", "BinaryInfo", "DWARFInfo", "TypeLowering"]),

        // Snapshot assertions for unit tests.
        .target(name: "LayoutTesting", dependencies: ["TypeLayout", "TypeInfo"]),

        // JSON <-> models, standing on ClassInfo only.
        .target(name: "ModelMapper", dependencies: ["TypeInfo"]),

        // The CLI: argument parsing and printing only.
        .executableTarget(
            name: "typeinfo",
            dependencies: [
                "TypeLayout", "TypeInfo", "LayoutReading",
                // Not linked: built beside typeinfo so that `swift run typeinfo` finds its worker.
                "typeinfo-lowering",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // `swift package layout-check`: a package's layout regression test, typeinfo built from here.
        .plugin(
            name: "LayoutCheckPlugin",
            capability: .command(
                intent: .custom(
                    verb: "layout-check", description: "Check the product's type layouts against a committed snapshot (--record writes it)."
                ),
                permissions: [.writeToPackageDirectory(reason: "--record writes the layout snapshot into the package")]
            ),
            dependencies: ["typeinfo", "typeinfo-lowering"]
        ),

        // Types declared in a second module, so tests can read metadata across module boundaries.
        .target(name: "TypeInfoFixtures", path: "Tests/TypeInfoFixtures"),

        .testTarget(name: "TypeLayoutTests", dependencies: ["TypeLayout"]),
        .testTarget(name: "TypeInfoTests", dependencies: ["TypeInfo", "TypeInfoFixtures"]),
        // The same client source (a symlink) in both language modes: Swift 5 hands existentials
        // to TypeInfo unopened, Swift 6 opens them at the call site.
        .testTarget(name: "TypeInfoClientSwift5Tests", dependencies: ["TypeInfo"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "TypeInfoClientSwift6Tests", dependencies: ["TypeInfo"]),
        // TargetInspector from a Swift 5 language mode client (existentials handed over unopened).
        .testTarget(
            name: "TargetClientSwift5Tests", dependencies: ["TypeLowering", "BinaryInfo", "LayoutReading", "TypeLayout", "BinaryFixtures"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Fixture programs compiled once per test run, shared by the BinaryInfo and LayoutReading tests.
        .target(name: "BinaryFixtures", dependencies: ["TypeLayout"], path: "Tests/BinaryFixtures"),
        // The toolchain's static reflection reader, an oracle for BinaryInfoTests (declared only, loaded with dlopen).
        .systemLibrary(name: "CStaticMirror", path: "Tests/CStaticMirror"),
        .testTarget(
            name: "BinaryInfoTests",
            dependencies: ["BinaryInfo", "TypeInfo", "BinaryFixtures", "CStaticMirror"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "TypeLoweringTests", dependencies: ["TypeLowering", "BinaryInfo", "TypeInfo", "BinaryFixtures"], exclude: ["Fixtures"]),
        .testTarget(name: "DWARFInfoTests", dependencies: ["DWARFInfo", "BinaryInfo"], exclude: ["Fixtures"]),
        .testTarget(name: "LayoutTestingTests", dependencies: ["LayoutTesting"], exclude: ["__Snapshots__"]),
        // The reading entry point, and the typeinfo CLI end to end (run as users run it).
        .testTarget(
            name: "LayoutReadingTests", dependencies: ["LayoutReading", "BinaryInfo", "DWARFInfo", "TypeLowering", "BinaryFixtures"]),
        .testTarget(
            name: "ModelMapperTests", dependencies: ["ModelMapper", "TypeInfo", "BinaryFixtures"], exclude: ["ReleaseFixture"],
            resources: [.copy("Resources")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
