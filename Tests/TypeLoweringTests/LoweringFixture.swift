import Foundation
import Synchronization

/// The lowering corpus (Fixtures/), compiled once per build kind and run for its own layouts.
enum LoweringFixture: String, CaseIterable, Sendable, CustomStringConvertible {
    case plain, optimized

    var description: String { rawValue }

    static let directory: String = {
        let path = NSTemporaryDirectory() + "typelowering-fixtures-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // The products are shared by the whole run and there is no end-of-run hook: the
        // process's own exit removes them.
        atexit { try? FileManager.default.removeItem(atPath: LoweringFixture.directory) }
        return path
    }()

    static let sources: [String] = {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        return ["LoweringCorpus.swift", "main.swift"].map { fixtures.appendingPathComponent($0).path }
    }()

    static let swiftc: String =
        ProcessInfo.processInfo.environment["SWIFTC"]
        ?? ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swiftc"

    private static let built = Mutex<[LoweringFixture: String]>([:])
    private static let lock = NSLock()

    /// The built executable's path (compiled on first use).
    func product() throws -> String {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let done = Self.built.withLock({ $0[self] }) { return done }
        let output = Self.directory + "/lowering-" + rawValue
        let flags = self == .optimized ? ["-O"] : []
        _ = try Self.run(Self.swiftc, ["-module-name", "LoweringFixture"] + flags + Self.sources + ["-o", output])
        Self.built.withLock { $0[self] = output }
        return output
    }

    /// One type as the running fixture reports it.
    struct OracleType {
        struct Field { var name: String; var offset: Int; var size: Int; var alignment: Int }
        var mangling: String
        var size: Int
        var alignment: Int
        var stride: Int
        var instanceSize: Int?
        var instanceAlignment: Int?
        var fields: [Field] = []
        /// The value witness table's extra inhabitant count (for a class, its reference's).
        var extraInhabitants: Int?
        /// Multi-payload enums: tag bytes after the largest payload, and the payload bits holding the tag.
        var tagBytes: Int?
        var tagSpareBits: String?
        /// Enums: the descriptor's payload and empty case counts, and payload sizes by case index.
        var caseCounts: (payload: Int, empty: Int)?
        var payloadSizes: [Int: Int] = [:]
    }

    /// The fixture's printout (`type`, `field`, `extra`, `tagbits`, `cases` and `payload` lines, see Fixtures/main.swift).
    func oracle() throws -> [OracleType] {
        var types: [OracleType] = []
        for line in try Self.run(try product(), []).split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.first == "type", parts.count == 7, let size = Int(parts[2]), let alignment = Int(parts[3]), let stride = Int(parts[4])
            {
                types.append(
                    OracleType(
                        mangling: parts[1], size: size, alignment: alignment, stride: stride,
                        instanceSize: Int(parts[5]), instanceAlignment: Int(parts[6])))
            } else if parts.first == "field", parts.count == 6, let offset = Int(parts[3]), let size = Int(parts[4]),
                let alignment = Int(parts[5]),
                types.last?.mangling == parts[1]
            {
                types[types.count - 1].fields.append(OracleType.Field(name: parts[2], offset: offset, size: size, alignment: alignment))
            } else if parts.first == "extra", parts.count == 3, let count = Int(parts[2]), types.last?.mangling == parts[1] {
                types[types.count - 1].extraInhabitants = count
            } else if parts.first == "tagbits", parts.count == 4, let tagBytes = Int(parts[2]),
                let index = types.firstIndex(where: { $0.mangling == parts[1] })
            {
                types[index].tagBytes = tagBytes
                types[index].tagSpareBits = parts[3]
            } else if parts.first == "cases", parts.count == 4, let payload = Int(parts[2]), let empty = Int(parts[3]),
                let index = types.firstIndex(where: { $0.mangling == parts[1] })
            {
                types[index].caseCounts = (payload, empty)
            } else if parts.first == "payload", parts.count == 4, let caseIndex = Int(parts[2]), let size = Int(parts[3]),
                let index = types.firstIndex(where: { $0.mangling == parts[1] })
            {
                types[index].payloadSizes[caseIndex] = size
            } else {
                throw FixtureError(message: "unexpected fixture line: \(line)")
            }
        }
        return types
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
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
            throw FixtureError(message: "\(program) failed: \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self)
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
