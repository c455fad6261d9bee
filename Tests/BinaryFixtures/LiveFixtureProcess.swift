import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// How a live fixture's Swift runtime is linked.
public enum FixtureLinking: String, CaseIterable, Sendable, CustomStringConvertible {
    /// libswiftCore.so from the toolchain.
    case dynamic
    /// `-static-stdlib`: the runtime inside the executable, as servers are deployed.
    case staticStdlib

    public var description: String { rawValue }
}

/// A running release-built Swift fixture (`Fixtures/<Module>/main.swift`) that prints what it
/// holds as one JSON line per report, takes commands on standard input, and runs until killed.
public final class LiveFixtureProcess<Report: Decodable> {
    public let executable: String
    public let processID: Int32
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var pending = Data()

    /// The release-built executable of `Fixtures/<module>/main.swift` (compiled once per test process).
    public static func product(module: String, linking: FixtureLinking) throws -> String {
        liveFixtureCompiling.lock()
        defer { liveFixtureCompiling.unlock() }
        let key = "\(module)-\(linking)"
        if let done = liveFixtureBuilds.withLock({ $0[key] }) { return try done.get() }
        let directory = ScratchDirectory.path(named: "live-fixtures")
        let result = Result<String, any Error> {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let output = directory + "/" + key
            let source = FixtureToolchain.fixturesDirectory + "/\(module)/main.swift"
            let linkFlags = linking == .staticStdlib ? ["-static-stdlib"] : []
            try FixtureToolchain.run(
                FixtureToolchain.swiftc, ["-O", "-swift-version", "5", "-module-name", module] + linkFlags + [source, "-o", output],
                in: directory)
            return output
        }
        liveFixtureBuilds.withLock { $0[key] = result }
        return try result.get()
    }

    /// Starts the fixture; read its first report with ``readReport()``.
    ///
    /// - Parameters:
    ///   - copy: run a copy of the executable made at this path (a test may then move, replace or
    ///     remove the file the process runs).
    ///   - environment: variables set for the process, besides this process's environment.
    public convenience init(
        module: String, linking: FixtureLinking, runningCopyAt copy: String? = nil, environment: [String: String] = [:]
    ) throws {
        try self.init(executable: try Self.product(module: module, linking: linking), runningCopyAt: copy, environment: environment)
    }

    /// Starts an executable built elsewhere (a SwiftPM fixture package's product).
    ///
    /// - Parameter launcher: a program and its arguments that run the executable, its path last
    ///   (``DebianRoot/container(_:)``: the process is then the executable's, as the launcher
    ///   execs it).
    public init(
        executable product: String, runningCopyAt copy: String? = nil, environment: [String: String] = [:], launcher: [String] = []
    ) throws {
        if let copy {
            try? FileManager.default.removeItem(atPath: copy)
            // Copied by cp, not in this process: a write descriptor held here would be inherited
            // by any process another test starts meanwhile, and exec would fail with ETXTBSY.
            _ = try FixtureToolchain.run("/bin/cp", [product, copy], in: "/")
        }
        executable = copy ?? product
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [executable]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
        }
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        processID = process.processIdentifier
    }

    /// Writes one command line to the fixture's standard input.
    public func send(_ command: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
    }

    /// Waits for the next report line.
    public func readReport() throws -> Report { try readReport(as: Report.self) }

    /// Waits for the next line, a report of another shape (the answer to a command).
    public func readReport<Line: Decodable>(as: Line.Type) throws -> Line {
        while !pending.contains(UInt8(ascii: "\n")) {
            // availableData returns what one read gives; read(upToCount:) would wait for the whole count.
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw FixtureError(message: "\(executable) ended before reporting") }
            pending.append(chunk)
        }
        let end = pending.firstIndex(of: UInt8(ascii: "\n"))!
        let line = pending[pending.startIndex..<end]
        pending = Data(pending[(end + 1)...])
        do {
            return try JSONDecoder().decode(Line.self, from: line)
        } catch {
            throw FixtureError(message: "\(executable) printed \(String(decoding: line.prefix(300), as: UTF8.self)): \(error)")
        }
    }

    /// Kills the process (SIGKILL: the test runner's blocked signals are inherited) and waits for it.
    public func finish() {
        if process.isRunning { kill(processID, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { finish() }
}

private let liveFixtureBuilds = Mutex<[String: Result<String, any Error>]>([:])
private let liveFixtureCompiling = NSLock()
