import Foundation

/// Core files of fixture processes, written by gdb's `gcore` (Tools/setup installs gdb), which
/// leaves the process running as it was.
public enum CoreDump {
    /// `gcore`, or nil when gdb is not installed (tests that need it say so and do not run).
    public static let gcore: String? = ["/usr/bin/gcore", "/usr/local/bin/gcore"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Dumps the process `processID` into a new file in a scratch directory and returns its path.
    public static func make(of processID: Int32) throws -> String {
        guard let gcore else { throw FixtureError(message: "gcore (gdb) is not installed: run Tools/setup") }
        let directory = ScratchDirectory.path(named: "cores")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let prefix = directory + "/core-\(UUID().uuidString)"
        try FixtureToolchain.run(gcore, ["-o", prefix, String(processID)], in: directory)
        return prefix + ".\(processID)"
    }
}
