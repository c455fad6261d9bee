import Foundation
import TypeLayout
import Synchronization

/// How a fixture is compiled.
public enum FixtureBuild: String, CaseIterable, Sendable, CustomStringConvertible {
    case plain, debug, optimized, sharedLibrary, object
    /// Linked by lld with `-z pack-relative-relocs`: relative relocations in `.relr.dyn`.
    case packedRelocations

    public var description: String { rawValue }

    /// The product file name.
    public var product: String {
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
    public var isExecutable: Bool { self == .plain || self == .debug || self == .optimized || self == .packedRelocations }

    /// The build whose printout is the oracle for this product (a library or object file cannot run).
    public var oracleBuild: FixtureBuild { isExecutable ? self : .plain }

    public var swiftcArguments: [String] {
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

/// Compiles fixtures with the toolchain's `swiftc` (shared by the BinaryInfo and LayoutReading tests), once per test run, into a temporary directory (removed at exit).
public enum FixtureToolchain {
    public static let fixturesDirectory: String = {
        // The sources stay with the BinaryInfo tests, which they were written for.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BinaryInfoTests/Fixtures").path
    }()

    public static let buildDirectory: String = {
        let path = ScratchDirectory.path(named: "binaryinfo-fixtures")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Under `Tools/sanitize` this build's objects are instrumented: a program linked with them
    /// links the same sanitizer runtime.
    public static var sanitizerFlags: [String] {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        if dlsym(process, "__tsan_init") != nil { return ["-sanitize=thread"] }
        if dlsym(process, "__asan_init") != nil { return ["-sanitize=address"] }
        return []
    }

    /// The compiler: `$SWIFTC`, else the `swiftc` next to the running toolchain, else from PATH.
    public static let swiftc: String = {
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
    public static func product(_ build: FixtureBuild) throws -> String {
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
    public static func oracle(_ build: FixtureBuild) throws -> [OracleType] {
        let executable = try product(build.oracleBuild)
        let printed = try run(executable, [], in: buildDirectory)
        return try JSONDecoder().decode([OracleType].self, from: Data(printed.utf8))
    }

    /// Runs a program and returns its standard output, or throws with its standard error.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], in directory: String) throws -> String {
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
            throw FixtureError(
                message: "\(program) \(arguments.joined(separator: " ")) failed: \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self)
    }
}

public struct FixtureError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}

/// One type as the fixture program sees itself (see `fixtureOracleJSON()` in Fixtures/LayoutFixture.swift).
public struct OracleType: Decodable, Sendable {
    public struct Field: Decodable, Sendable {
        public var name: String
        public var offset: Int
        public var type: String
        public var size: Int
        public var alignment: Int
    }

    public var name: String
    public var mangledName: String
    public var kind: String
    public var generic: Bool
    public var size: Int
    public var alignment: Int
    public var stride: Int
    /// The value witness table's extra inhabitant count.
    public var extraInhabitants: Int
    public var superclass: String?
    public var fields: [Field]
    public var cases: [String]
    public var conformances: [String]

    /// Whether the runtime could not name the type's context (private and fileprivate types).
    public var isPrivate: Bool { mangledName.contains("XZ") }

    /// The last component of the name, for private types: `PrivateThing`.
    public var simpleName: String { String(name.split(separator: ".").last ?? "") }
}

extension OracleType {
    /// The reader's layout of this type among `types`.
    public func find(in types: [TypeLayout]) -> TypeLayout? {
        if generic {
            // `M.Outer<Swift.Int>.Inner<Swift.String>` is the declaration `M.Outer<A>.Inner<A1>`.
            let shape = Self.withoutGenericArguments(name)
            return types.first { Self.withoutGenericArguments($0.name) == shape }
        }
        if isPrivate {
            // The runtime names private contexts by address; the file names them by discriminator.
            return types.first { $0.name.hasPrefix("Fixture.(\(simpleName) in _") }
        }
        return types.first { $0.mangledName == mangledName }
    }

    /// The name with every `<…>` group removed.
    public static func withoutGenericArguments(_ name: String) -> String {
        var depth = 0
        var result = ""
        for character in name {
            if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if depth == 0 { result.append(character) }
        }
        return result
    }
}
