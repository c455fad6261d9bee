import BinaryFixtures
import Foundation
import Testing

/// A selected reading reads only the DWARF units that can hold the selected types
/// (DWARFInfo's first pass over unit-level names): what `typeinfo` prints must be byte for byte
/// what it prints with `--dwarf-every-unit` (every unit read), with `--dwarf-read-to-end` (no
/// stop at the unit that gives the last wanted type) and with `--eager-selection` (every type
/// read, the selection applied afterwards).
@Suite(
    "typeinfo with and without the DWARF unit filter",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct DWARFUnitFilterCommandTests {
    /// Standard output and the exit status of `typeinfo arguments`.
    static func run(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let outcome = try DumpCommandTests.run(arguments)
        return (outcome.output, outcome.status)
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
        let everyUnit = try Self.run(arguments + [fixture, "--dwarf-every-unit"])
        // Nor may it change when the reading goes on past the unit that gave the last wanted type,
        // nor when every type is read and the selection applied afterwards.
        let toEnd = try Self.run(arguments + [fixture, "--dwarf-read-to-end"])
        let eager = try Self.run(arguments + [fixture, "--eager-selection"])
        #expect(filtered.status == 0)
        #expect(filtered.output == everyUnit.output)
        #expect(filtered.output == toEnd.output)
        #expect(filtered.output == eager.output)
        // The dump compares the selected types with DWARF (plain -g: described without members).
        if arguments[0] == "dump", !arguments.contains("json") {
            #expect(filtered.output.contains("what it leaves out is not compared: 1 without their members (plain -g"))
        }
    }
}
