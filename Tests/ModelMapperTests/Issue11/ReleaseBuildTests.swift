import BinaryFixtures
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Builds `ReleaseFixture/main.swift` with `-O` against this build's ModelMapper, TypeInfo and
/// TypeLayout objects, runs it once, and returns its `name -> values` lines.
enum ReleaseFixture {
    static let output = build(source: "main.swift", modules: ["ModelMapper", "TypeInfo", "TypeLayout"], flags: ["-O"])

    /// Builds `ReleaseFixture/<source>` (a `main.swift`: top-level code) with `flags` against this
    /// build's objects of `modules`, runs it once, and returns its `name -> values` lines
    /// (`name<TAB>value`).
    static func build(source name: String, modules names: [String], flags: [String]) -> Result<[String: [String]], FixtureError> {
        do {
            // The test bundle's resources sit in the build directory beside each module's objects.
            let build = Bundle.module.bundleURL.deletingLastPathComponent()
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("ReleaseFixture/\(name)").path
            var objects: [String] = []
            for module in names {
                let directory = build.appendingPathComponent("\(module).build")
                // The objects of the module's current sources, as the build's own file map names
                // them: the directory may also hold objects of sources renamed or deleted since.
                let map = directory.appendingPathComponent("output-file-map.json")
                let entries = (try? JSONSerialization.jsonObject(with: Data(contentsOf: map))) as? [String: [String: String]] ?? [:]
                var found = entries.compactMap { $0.value["object"] }.sorted()
                let wrapped = directory.appendingPathComponent("\(module).swiftmodule.o").path
                if FileManager.default.fileExists(atPath: wrapped) { found.append(wrapped) }
                guard !found.isEmpty else { throw FixtureError(message: "no object files of \(module) in \(directory.path)") }
                objects += found
            }
            let directory =
                NSTemporaryDirectory()
                + "modelmapper-release-\(ProcessInfo.processInfo.processIdentifier)-\(name.replacingOccurrences(of: "/", with: "-"))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // Only the printed lines are kept: the product is run once, below.
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let product = directory + "/release-fixture"
            let modules = build.appendingPathComponent("Modules").path
            try FixtureToolchain.run(
                FixtureToolchain.swiftc, flags + FixtureToolchain.sanitizerFlags + ["-I", modules, source] + objects + ["-o", product],
                in: directory)
            let printed = try FixtureToolchain.run(product, [], in: directory)
            var lines: [String: [String]] = [:]
            for line in printed.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
                lines[parts[0], default: []].append(parts.count > 1 ? parts[1] : "")
            }
            return .success(lines)
        } catch let error as FixtureError {
            return .failure(error)
        } catch {
            return .failure(FixtureError(message: "\(error)"))
        }
    }

    /// The single value printed for `name`.
    static func value(_ name: String) throws -> String {
        let lines = try output.get()
        return try #require(lines[name]?.first, "the release fixture printed no \(name)")
    }
}

@Suite("issue 11 in an optimized (-O) build")
struct ReleaseBuildTests {
    let foldMessage =
        "is not decoded: it is a 'let' of a class with a trivial type, and an optimized (-O) build may replace its reads with its initial value, so a decoded value would be lost; declare it 'var' (or 'private(set) var'), or leave it out (mapping.excludedProperties)"

    @Test func theOptimizerFoldsClassLetsInitialisedWithALiteral() throws {
        // The reason for the refusal, seen in this toolchain: TypeInfo stored 1000, the
        // optimized program's own read of the property still says 0.
        #expect(try ReleaseFixture.value("fold.stored") == "1000")
        #expect(try ReleaseFixture.value("fold.read") == "0")
    }

    @Test func foldableLetsAreRefusedAndOtherPropertiesDecode() throws {
        #expect(try ReleaseFixture.value("let.lenient") == "0.0 0 ann 3")
        #expect(
            try ReleaseFixture.output.get()["diagnostic"] == [
                "ModelMapper: LiteralLets.extra \(foldMessage)", "ModelMapper: LiteralLets.id \(foldMessage)",
            ])
        #expect(try ReleaseFixture.value("let.strict") == "error: $.id: LiteralLets.id \(foldMessage)")
        #expect(try ReleaseFixture.value("let.struct") == "7 0.25")
    }

    @Test func transformersPathsAndIndexes() throws {
        #expect(try ReleaseFixture.value("transform.nil") == #"{"born":null,"label":"x"}"#)
        #expect(try ReleaseFixture.value("transform.nil.omitted") == #"{"label":"x"}"#)
        for path in ["data.result.", ".data.result", "", "."] {
            #expect(try ReleaseFixture.value("designated[\(path)]") == "5")
        }
        #expect(try ReleaseFixture.value("path.through.string") == #"error: $.user: expected an object with key "name", found a string"#)
        #expect(
            try ReleaseFixture.value("path.indexes")
                == #"12 rex {"user":{"name":""},"distances":[{"value":12}],"data":[null,{"dog":{"name":"rex"}}]}"#)
    }

    @Test func conversions() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        let twitter = try #require(formatter.date(from: "Fri Sep 04 00:12:21 +0800 2015"))
        #expect(try ReleaseFixture.value("convert") == "true 1.0 nil 12.5 \(twitter.timeIntervalSince1970)")
        #expect(try ReleaseFixture.value("convert.bool.string") == "true")
    }

    @Test func updatesNestedDefaultsAndDictionaries() throws {
        #expect(try ReleaseFixture.value("update.struct") == "default 1 true")
        #expect(try ReleaseFixture.value("update.class") == "ann 99")
        #expect(try ReleaseFixture.value("merge.nested") == "9 true")
        #expect(try ReleaseFixture.value("merge.nested.class") == "ann 3 true bo 4")
        #expect(try ReleaseFixture.value("dictionary") == "a=ann/1 b=bo/10")
    }

    @Test func modelsWithoutInit() throws {
        #expect(try ReleaseFixture.value("factory") == "1000 ann")
    }

    @Test func enumsWithAssociatedValues() throws {
        #expect(
            try ReleaseFixture.value("enum")
                == #"rect(w: 2.0, h: 3.5) [main.Figure.pair(1, 2), main.Figure.value(7), main.Figure.none] {"figure":{"rect":{"w":2,"h":3.5}},"figures":[{"pair":{"_0":1,"_1":2}},{"value":{"_0":7}},{"none":{}}]}"#
        )
        #expect(try ReleaseFixture.value("enum.circle") == #"true {"shape":{"circle":{"radius":2}}}"#)
    }
}
