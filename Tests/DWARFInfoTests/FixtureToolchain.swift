import Foundation
import Testing

/// Why a fixture could not be built or run.
struct FixtureError: Error, CustomStringConvertible {
    var description: String
}

/// Compiles and runs the test fixtures. Each fixture is built once per test run (the static
/// `let`s below are initialised lazily and exactly once), into one temporary directory.
enum FixtureToolchain {
    /// `Tests/DWARFInfoTests/Fixtures`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A fresh directory for this run's build products, removed at exit. Directories that
    /// earlier runs left behind (crashed or killed) are removed once they are a day old.
    static let workDirectory: URL = {
        let files = FileManager.default
        let temporary = files.temporaryDirectory
        let dayAgo = Date().addingTimeInterval(-86_400)
        for name in (try? files.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("DWARFInfoTests-") {
            let old = temporary.appendingPathComponent(name)
            if let modified = try? files.attributesOfItem(atPath: old.path)[.modificationDate] as? Date, modified < dayAgo {
                try? files.removeItem(at: old)
            }
        }
        let url =
            temporary
            .appendingPathComponent("DWARFInfoTests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try? files.createDirectory(at: url, withIntermediateDirectories: true)
        // Removed when the test process exits; the sweep above catches runs that crashed.
        atexit { try? FileManager.default.removeItem(at: FixtureToolchain.workDirectory) }
        return url
    }()

    /// The toolchain's clang (next to `swiftc`), which CI machines have; `clang` on `PATH` otherwise.
    static let clang: String = tool(named: "clang")
    static let clangPlusPlus: String = tool(named: "clang++")
    static let swiftc: String = tool(named: "swiftc")

    private static func tool(named name: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let toolchain = environment["TOOLCHAIN_DIR"] { candidates.append("\(toolchain)/usr/bin/\(name)") }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append("\(directory)/\(name)")
        }
        candidates.append("/opt/swift/usr/bin/\(name)")
        // Prefer the copy that sits beside swiftc: that is the Swift toolchain's own clang.
        let beside = candidates.first { path in
            let directory = (path as NSString).deletingLastPathComponent
            return FileManager.default.isExecutableFile(atPath: path)
                && FileManager.default.isExecutableFile(atPath: "\(directory)/swiftc")
        }
        return beside ?? candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? name
    }

    /// Runs a program and returns its standard output.
    ///
    /// - Throws: ``FixtureError`` with the program's standard error when it exits non-zero.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errorFile = workDirectory.appendingPathComponent("stderr-\(UUID().uuidString.prefix(8)).txt")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errorHandle.close()
        let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw FixtureError(
                description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus):\n\(stderr)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The C fixture header and source.
    static var cHeader: URL { fixtures.appendingPathComponent("C/layouts.h") }
    static var cSource: URL { fixtures.appendingPathComponent("C/layouts.c") }

    /// `layouts.c` compiled with `clang -g -c` at each DWARF version the tests read: 5 (the
    /// default), 4 (`DW_AT_data_bit_offset`) and 2 (`DW_AT_bit_offset`, location expressions).
    static let cObjects: Result<[String: String], any Error> = Result {
        var objects: [String: String] = [:]
        for version in [2, 4, 5] {
            let object = workDirectory.appendingPathComponent("layouts-clang-dwarf\(version).o").path
            try run(clang, ["-g", "-gdwarf-\(version)", "-c", cSource.path, "-o", object])
            objects["clang-\(version)"] = object
        }
        if let gcc {
            for version in [2, 4, 5] {
                let object = workDirectory.appendingPathComponent("layouts-gcc-dwarf\(version).o").path
                try run(gcc, ["-g", "-gdwarf-\(version)", "-gstrict-dwarf", "-c", cSource.path, "-o", object])
                objects["gcc-\(version)"] = object
            }
        }
        return objects
    }

    /// GCC, when the machine has one: it writes DWARF differently from clang (implicit
    /// constants, members at offset 0 without a location). `Tools/setup` installs it; tests
    /// that need it are disabled, with ``missingGCC`` as the reason, where it is absent.
    static let gcc: String? = onPath("gcc")
    /// g++, when the machine has one (installed by `Tools/setup`).
    static let gxx: String? = onPath("g++")

    /// The reason shown for tests disabled because GCC is missing.
    static let missingGCC: Comment = "gcc is not installed: run Tools/setup (apt-get install gcc) to read GCC-written DWARF"
    /// The reason shown for tests disabled because g++ is missing.
    static let missingGXX: Comment = "g++ is not installed: run Tools/setup (apt-get install g++) to read g++-written DWARF"

    private static func onPath(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") + ["/usr/bin"] {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Compiles and runs a C program; returns what it prints.
    static func compileAndRun(cSource source: String, named name: String, compiler: String = clang) throws -> String {
        let sourceURL = workDirectory.appendingPathComponent("\(name).c")
        let executable = workDirectory.appendingPathComponent(name).path
        try source.write(to: sourceURL, atomically: true, encoding: .utf8)
        try run(compiler, ["-w", "-I", cHeader.deletingLastPathComponent().path, sourceURL.path, "-o", executable])
        return try run(executable, [])
    }

    /// The C++ fixture header and source.
    static var cPlusPlusHeader: URL { fixtures.appendingPathComponent("CPlusPlus/layouts.hpp") }
    static var cPlusPlusSource: URL { fixtures.appendingPathComponent("CPlusPlus/layouts.cpp") }

    /// `layouts.cpp` compiled with `clang++ -g -c`.
    static let cPlusPlusObject: Result<String, any Error> = Result {
        let object = workDirectory.appendingPathComponent("layouts-cpp.o").path
        try run(clangPlusPlus, ["-g", "-c", cPlusPlusSource.path, "-o", object])
        return object
    }

    /// Compiles (with the fixture's definitions linked in) and runs a C++ program.
    static func compileAndRun(cPlusPlusSource source: String, named name: String) throws -> String {
        let sourceURL = workDirectory.appendingPathComponent("\(name).cpp")
        let executable = workDirectory.appendingPathComponent(name).path
        try source.write(to: sourceURL, atomically: true, encoding: .utf8)
        try run(
            clangPlusPlus,
            [
                "-w", "-std=c++17", "-I", cPlusPlusHeader.deletingLastPathComponent().path,
                sourceURL.path, cPlusPlusSource.path, "-o", executable,
            ])
        return try run(executable, [])
    }
}

extension FixtureToolchain {
    static var swiftSource: URL { fixtures.appendingPathComponent("Swift/SwiftFixture.swift") }

    /// `SwiftFixture.swift` built with full DWARF types, and its own printout of the truth.
    static let swiftFixture: Result<(executable: String, output: String), any Error> = Result {
        let executable = workDirectory.appendingPathComponent("SwiftFixture").path
        try run(
            swiftc,
            [
                "-g", "-Xfrontend", "-gdwarf-types", "-module-name", "SwiftFixture",
                swiftSource.path, "-o", executable,
            ])
        return (executable, try run(executable, []))
    }

    /// `SwiftFixture.swift` built with plain `-g`: Swift types without members.
    static let swiftFixturePlainDebug: Result<String, any Error> = Result {
        let executable = workDirectory.appendingPathComponent("SwiftFixture-plain-g").path
        try run(swiftc, ["-g", "-module-name", "SwiftFixture", swiftSource.path, "-o", executable])
        return executable
    }
}
