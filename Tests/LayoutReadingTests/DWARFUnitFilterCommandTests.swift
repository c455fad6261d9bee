import BinaryFixtures
import Foundation
import Testing

/// A selected reading reads only the DWARF units that can hold the selected types
/// (DWARFInfo's first pass over unit-level names): what `typeinfo` prints must be byte for byte
/// what it prints with `TYPEINFO_DWARF_UNIT_FILTER=0` (every unit read) and with
/// `TYPEINFO_DWARF_READ_TO_END=1` (no stop at the unit that gives the last wanted type).
@Suite(
    "typeinfo with and without the DWARF unit filter",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct DWARFUnitFilterCommandTests {
    /// Standard output and the exit status of `typeinfo arguments`, with `environment` added.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(TypeinfoExecutable.path))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: output, as: UTF8.self), process.terminationStatus)
    }

    @Test(
        "the selected output is the same with every unit read",
        arguments: [
            ["dump", "--type", "Fixture.Leaf", "--kind", "class"],
            ["dump", "--format", "json", "--type", "/^Fixture\\.(Leaf|MixedScalars|NestedStructs)$/"],
            ["layout", "--type", "Fixture.MixedScalars"],
        ])
    func sameOutput(arguments: [String]) throws {
        let fixture = try FixtureToolchain.product(.debug)
        let filtered = try Self.run(arguments + [fixture])
        let everyUnit = try Self.run(arguments + [fixture], environment: ["TYPEINFO_DWARF_UNIT_FILTER": "0"])
        // Nor may it change when the reading goes on past the unit that gave the last wanted type.
        let toEnd = try Self.run(arguments + [fixture], environment: ["TYPEINFO_DWARF_READ_TO_END": "1"])
        #expect(filtered.status == 0)
        #expect(filtered.output == everyUnit.output)
        #expect(filtered.output == toEnd.output)
        // The dump compares the selected types with DWARF (plain -g: described without members).
        if arguments[0] == "dump", !arguments.contains("json") {
            #expect(filtered.output.contains("what it leaves out is not compared: 1 without their members (plain -g"))
        }
    }
}
