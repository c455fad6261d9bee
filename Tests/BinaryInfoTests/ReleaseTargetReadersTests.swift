import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// BinaryInfo's target readers (the heap walk's windows, a core's and a process's reads, the
/// metadata decoders over a target's bytes) compiled with `-O`, as an installed typeinfo runs
/// them: `Fixtures/ReleaseTargetReaders/main.swift` against TypeLayout and BinaryInfo built from
/// their sources with `swiftc -O -wmo`, and this build's objects of the packages they import.
enum ReleaseTargetReaders {
    static let product: Result<String, FixtureError> = build()

    static func build() -> Result<String, FixtureError> {
        do {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            // The test bundle sits in the build directory, beside each module's objects.
            let build = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
            let directory = FixtureToolchain.buildDirectory + "/release-target-readers"
            try FileManager.default.createDirectory(atPath: directory + "/modules", withIntermediateDirectories: true)
            func sources(_ folders: [String]) throws -> [String] {
                try folders.flatMap { folder in
                    try FileManager.default.contentsOfDirectory(atPath: root.path + "/" + folder).filter { $0.hasSuffix(".swift") }.sorted()
                        .map { root.path + "/" + folder + "/" + $0 }
                }
            }
            var objects: [String] = []
            for module in ["SystemPackage", "CSystem", "Algorithms", "RealModule", "_NumericsShims", "CPtrace"] {
                let folder = build.appendingPathComponent("\(module).build")
                let map = folder.appendingPathComponent("output-file-map.json")
                let entries = (try? JSONSerialization.jsonObject(with: Data(contentsOf: map))) as? [String: [String: String]] ?? [:]
                var found = entries.compactMap { $0.value["object"] }.filter { FileManager.default.fileExists(atPath: $0) }
                if found.isEmpty {
                    // C targets have no file map: their objects are the folder's.
                    found =
                        (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".o") }
                        .map { folder.path + "/" + $0 } ?? []
                }
                guard !found.isEmpty else { throw FixtureError(message: "no object files of \(module) in \(folder.path)") }
                objects += found.sorted()
            }
            let checkouts = root.path + "/.build/checkouts"
            let includes = [
                "-I", directory + "/modules", "-I", build.appendingPathComponent("Modules").path, "-I", root.path + "/Sources/CLibElf",
                "-I", checkouts + "/swift-system/Sources/CSystem/include", "-I",
                checkouts + "/swift-numerics/Sources/_NumericsShims/include",
                // CPtrace's module map is the one SwiftPM generated for the C target.
                "-Xcc", "-fmodule-map-file=" + build.appendingPathComponent("CPtrace.build/module.modulemap").path,
            ]
            let swiftc = FixtureToolchain.swiftc
            _ = try FixtureToolchain.run(
                swiftc,
                [
                    "-wmo", "-parse-as-library", "-O", "-module-name", "TypeLayout", "-emit-module", "-emit-module-path",
                    directory + "/modules/TypeLayout.swiftmodule", "-c",
                ] + sources(["Sources/TypeLayout", "Sources/TypeLayout/ABI"])
                    + ["-o", directory + "/TypeLayout.o"], in: directory)
            _ = try FixtureToolchain.run(
                swiftc,
                [
                    "-wmo", "-parse-as-library", "-O", "-module-name", "BinaryInfo", "-emit-module", "-emit-module-path",
                    directory + "/modules/BinaryInfo.swiftmodule",
                ] + includes + ["-c"]
                    + sources(["Sources/BinaryInfo", "Sources/BinaryInfo/Target", "Sources/BinaryInfo/Target/Graph"]) + [
                        "-o", directory + "/BinaryInfo.o",
                    ], in: directory)
            let product = directory + "/release-target-readers"
            _ = try FixtureToolchain.run(
                swiftc,
                ["-O"] + FixtureToolchain.sanitizerFlags + includes + [
                    root.path + "/Tests/BinaryInfoTests/Fixtures/ReleaseTargetReaders/main.swift",
                    directory + "/TypeLayout.o", directory + "/BinaryInfo.o",
                ] + objects + ["-lelf", "-o", product], in: directory)
            return .success(product)
        } catch let error as FixtureError {
            return .failure(error)
        } catch {
            return .failure(FixtureError(message: "\(error)"))
        }
    }
}

@Suite("BinaryInfo's target readers in an optimized (-O) build", .serialized)
struct ReleaseTargetReadersTests {
    /// What the -O readers print of `target`.
    static func read(_ target: [String], _ fixture: LiveHeapFixture) throws -> (objects: [String: (Int, Int)], types: [String]) {
        let product = try ReleaseTargetReaders.product.get()
        let printed = try FixtureToolchain.run(product, target + fixture.report.types.map(\.metadata), in: "/")
        var objects: [String: (Int, Int)] = [:]
        var types: [String] = []
        for line in printed.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch parts.first {
            case "object": objects[parts[1]] = (Int(parts[2]) ?? -1, Int(parts[3]) ?? -1)
            case "type": types.append(parts[1] + "\t" + parts[2])
            default: Issue.record("unexpected line: \(line)")
            }
        }
        return (objects, types)
    }

    /// What the -O readers print of the fixture's process, or of a gcore core of it, checked
    /// against what the process states and the debug build's reading of its file.
    static func check(_ linking: LiveHeapFixture.Linking, fromCore: Bool) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        // The types as this (debug) build reads the executable's file.
        let expectedTypes = try BinaryImage.read(atPath: fixture.executable, runtimeLibrary: nil).document.types.map {
            $0.name + "\t" + ($0.size.map(String.init) ?? "?")
        }
        let target = fromCore ? ["core", try CoreDump.make(of: fixture.processID)] : ["pid", String(fixture.processID)]
        let (objects, types) = try Self.read(target, fixture)
        // Every fixture type's objects, counted and sized as the process states them.
        for held in fixture.report.types {
            let found = objects[held.metadata]
            #expect(found?.0 == held.count && found?.1 == held.bytes, "\(target[0]): \(held.type)")
        }
        #expect(types == expectedTypes, "\(target[0])")
        // The fixture's own classes among them (`LiveHeap.Box<Swift.Int>` is declared `LiveHeap.Box<T>`).
        for held in fixture.report.types {
            let declared = held.type.split(separator: "<").first.map(String.init) ?? held.type
            #expect(types.contains { $0.hasPrefix(declared + "\t") || $0.hasPrefix(declared + "<") }, "\(target[0]): \(held.type)")
        }
    }

    @Test(arguments: LiveHeapFixture.Linking.allCases)
    func processAsItStatesItself(_ linking: LiveHeapFixture.Linking) throws {
        try Self.check(linking, fromCore: false)
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"), arguments: LiveHeapFixture.Linking.allCases)
    func coreAsTheProcessStatedItself(_ linking: LiveHeapFixture.Linking) throws {
        try Self.check(linking, fromCore: true)
    }
}
