import Foundation
import Synchronization

/// How a fixture is compiled.
enum FixtureBuild: String, CaseIterable, Sendable, CustomStringConvertible {
    case plain, debug, optimized, sharedLibrary, object
    /// Linked by lld with `-z pack-relative-relocs`: relative relocations in `.relr.dyn`.
    case packedRelocations

    var description: String { rawValue }

    /// The product file name.
    var product: String {
        switch self {
        case .plain: return "fixture-plain"
        case .debug: return "fixture-debug"
        case .optimized: return "fixture-optimized"
        case .sharedLibrary: return "libFixture.so"
        case .object: return "Fixture.o"
        case .packedRelocations: return "fixture-relr"
        }
    }

    /// Whether the product runs and prints its own oracle.
    var isExecutable: Bool { self == .plain || self == .debug || self == .optimized || self == .packedRelocations }

    /// The build whose printout is the oracle for this product (a library or object file cannot run).
    var oracleBuild: FixtureBuild { isExecutable ? self : .plain }

    var swiftcArguments: [String] {
        let library = FixtureToolchain.fixturesDirectory + "/LayoutFixture.swift"
        let main = FixtureToolchain.fixturesDirectory + "/main.swift"
        switch self {
        case .plain: return [library, main]
        case .debug: return ["-g", library, main]
        case .optimized: return ["-O", library, main]
        case .sharedLibrary: return ["-parse-as-library", "-emit-library", library]
        case .object: return ["-parse-as-library", "-c", library]
        case .packedRelocations: return ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", library, main]
        }
    }
}

/// Compiles fixtures with the toolchain's `swiftc`, once per test run, into a temporary directory.
enum FixtureToolchain {
    static let fixturesDirectory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }()

    static let buildDirectory: String = {
        let path = NSTemporaryDirectory() + "binaryinfo-fixtures-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The compiler: `$SWIFTC`, else the `swiftc` next to the running toolchain, else from PATH.
    static let swiftc: String = {
        if let explicit = ProcessInfo.processInfo.environment["SWIFTC"] { return explicit }
        for candidate in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "swiftc"
    }()

    private static let built = Mutex<[FixtureBuild: Result<String, FixtureError>]>([:])
    /// One lock per build, held while it compiles, so parallel tests never read a half-written product.
    private static let compiling: [FixtureBuild: NSLock] = Dictionary(uniqueKeysWithValues: FixtureBuild.allCases.map { ($0, NSLock()) })

    /// The path of the built product (compiled on first use).
    static func product(_ build: FixtureBuild) throws -> String {
        if let done = built.withLock({ $0[build] }) { return try done.get() }
        let lock = compiling[build] ?? NSLock()
        lock.lock()
        defer { lock.unlock() }
        if let done = built.withLock({ $0[build] }) { return try done.get() }
        let output = buildDirectory + "/" + build.product
        let result: Result<String, FixtureError>
        do {
            _ = try run(swiftc, ["-module-name", "Fixture"] + build.swiftcArguments + ["-o", output], in: buildDirectory)
            result = .success(output)
        } catch let error as FixtureError {
            result = .failure(error)
        }
        built.withLock { $0[build] = result }
        return try result.get()
    }

    /// What the built executable prints about its own types.
    static func oracle(_ build: FixtureBuild) throws -> [OracleType] {
        let executable = try product(build.oracleBuild)
        let printed = try run(executable, [], in: buildDirectory)
        return try JSONDecoder().decode([OracleType].self, from: Data(printed.utf8))
    }

    /// Runs a program and returns its standard output, or throws with its standard error.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], in directory: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "\(program) \(arguments.joined(separator: " ")) failed: \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// One type as the fixture program sees itself (see `fixtureOracleJSON()` in Fixtures/LayoutFixture.swift).
struct OracleType: Decodable, Sendable {
    struct Field: Decodable, Sendable {
        var name: String
        var offset: Int
        var type: String
        var size: Int
        var alignment: Int
    }

    var name: String
    var mangledName: String
    var kind: String
    var generic: Bool
    var size: Int
    var alignment: Int
    var stride: Int
    var superclass: String?
    var fields: [Field]
    var cases: [String]
    var conformances: [String]

    /// Whether the runtime could not name the type's context (private and fileprivate types).
    var isPrivate: Bool { mangledName.contains("XZ") }

    /// The last component of the name, for private types: `PrivateThing`.
    var simpleName: String { String(name.split(separator: ".").last ?? "") }
}
