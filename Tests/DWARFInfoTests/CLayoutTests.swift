import Testing
import TypeLayout
@testable import DWARFInfo

/// C layouts read from DWARF against the compiler's own numbers.
@Suite struct CLayoutTests {
    /// The types of `Fixtures/C/layouts.h` with their members in declaration order, as the
    /// header spells them (anonymous members' fields appear in the type that holds them).
    static let expectedMembers: [String: (kind: TypeKind, members: [String])] = [
        "struct padded": (.struct, ["tag", "value", "y"]),
        "union number": (.union, ["i", "f", "bytes", "d"]),
        "struct flags": (.struct, ["a", "b", "c", "d", "e", "f", "g"]),
        "enum color": (.enum, ["COLOR_RED", "COLOR_GREEN", "COLOR_BLUE"]),
        "point_t": (.struct, ["x", "y"]),
        "struct inner": (.struct, ["s", "c"]),
        "struct outer": (
            .struct,
            [
                "in", "as_int", "as_float", "r", "g", "b", "points", "callback", "name", "fixed",
                "matrix", "color", "next", "tail",
            ]
        ),
        "struct packed": (.struct, ["c", "i", "s"]),
        "struct aligned": (.struct, ["c", "i"]),
        "struct header": (.struct, ["kind", "version", "ihl", "length", "payload"]),
    ]

    /// The builds read: the toolchain's clang at DWARF 2, 4 and 5, and GCC (when the machine has
    /// it) at DWARF 5 (`DW_FORM_implicit_const`, members at offset 0 without a location), 4, and
    /// strict DWARF 2 (`DW_AT_bit_offset`, location expressions).
    static let clangBuilds = ["clang-2", "clang-4", "clang-5"]
    static let gccBuilds = ["gcc-2", "gcc-4", "gcc-5"]

    /// The layouts read from one build; a build whose compiler is missing is an error (the
    /// GCC tests are disabled, visibly, before they get here).
    static func layouts(_ build: String) throws -> [TypeLayout] {
        let object = try #require(try FixtureToolchain.cObjects.get()[build], "\(build) was not built")
        return try DWARFReader(path: object).typeLayouts()
    }

    static func layouts(dwarfVersion: Int) throws -> [TypeLayout] {
        try layouts("clang-\(dwarfVersion)")
    }

    /// The oracle is generated once from the clang DWARF 5 reading and compiled by each compiler.
    static let oracles: Result<[String: CLayoutOracle], any Error> = Result {
        let found = try layouts(dwarfVersion: 5)
        let program = CLayoutOracle.program(for: found, header: "layouts.h")
        var oracles = ["clang": try CLayoutOracle(output: try FixtureToolchain.compileAndRun(cSource: program, named: "c-layout-oracle"))]
        if let gcc = FixtureToolchain.gcc {
            oracles["gcc"] = try CLayoutOracle(
                output: try FixtureToolchain.compileAndRun(
                    cSource: program, named: "c-layout-oracle-gcc", compiler: gcc
                ))
        }
        return oracles
    }

    static var oracle: Result<CLayoutOracle, any Error> {
        Result { try #require(try oracles.get()["clang"]) }
    }

    @Test("every fixture type and member is found, and nothing else (clang)", arguments: clangBuilds)
    func membersAreComplete(build: String) throws {
        try checkMembers(build: build)
    }

    @Test(
        "every fixture type and member is found, and nothing else (GCC)",
        .enabled(if: FixtureToolchain.gcc != nil, FixtureToolchain.missingGCC), arguments: gccBuilds)
    func gccMembersAreComplete(build: String) throws {
        try checkMembers(build: build)
    }

    @Test("sizes, alignments, offsets, member sizes and bitfields match the compiler (clang)", arguments: clangBuilds)
    func layoutsMatchCompiler(build: String) throws {
        try checkLayouts(build: build)
    }

    @Test(
        "sizes, alignments, offsets, member sizes and bitfields match the compiler (GCC)",
        .enabled(if: FixtureToolchain.gcc != nil, FixtureToolchain.missingGCC), arguments: gccBuilds)
    func gccLayoutsMatchCompiler(build: String) throws {
        try checkLayouts(build: build)
    }

    private func checkMembers(build: String) throws {
        let layouts = try Self.layouts(build)
        #expect(Set(layouts.map(\.name)) == Set(Self.expectedMembers.keys))
        #expect(layouts.count == Self.expectedMembers.count, "a type appears twice")
        for layout in layouts {
            let expected = try #require(Self.expectedMembers[layout.name])
            #expect(layout.kind == expected.kind, "\(layout.name)")
            let members = layout.kind == .enum ? layout.cases.map(\.name) : layout.fields.map(\.name)
            #expect(members == expected.members, "\(layout.name)")
            #expect(layout.source == .dwarf)
        }
    }

    private func checkLayouts(build: String) throws {
        let layouts = try Self.layouts(build)
        let producer = String(build.prefix { $0 != "-" })
        let oracle = try #require(try Self.oracles.get()[producer])
        var checkedFields = 0
        var checkedBitfields = 0
        for layout in layouts {
            let truth = try #require(oracle.types[layout.name], "\(layout.name) missing from the oracle")
            #expect(layout.size == truth.size, "sizeof(\(layout.name))")
            // GCC before DWARF 5 does not record `_Alignas`: that alignment must be unknown, not guessed.
            let hiddenAlignment = build.hasPrefix("gcc") && build != "gcc-5" && layout.name == "struct aligned"
            #expect(layout.alignment == (hiddenAlignment ? nil : truth.alignment), "_Alignof(\(layout.name))")
            #expect(layout.stride == truth.size, "stride of \(layout.name)")
            for field in layout.fields {
                if let width = field.bitWidth {
                    let bits = try #require(oracle.bitfields[layout.name]?[field.name], "\(layout.name).\(field.name)")
                    let offset = try #require(field.offset)
                    let bitOffset = try #require(field.bitOffset)
                    #expect(offset * 8 + bitOffset == bits.firstBit, "first bit of \(layout.name).\(field.name)")
                    #expect(width == bits.width, "width of \(layout.name).\(field.name)")
                    #expect((0..<8).contains(bitOffset))
                    checkedBitfields += 1
                    continue
                }
                let facts = try #require(oracle.fields[layout.name]?[field.name], "\(layout.name).\(field.name)")
                #expect(field.offset == facts.offset, "offsetof(\(layout.name), \(field.name))")
                #expect(field.size == facts.size, "sizeof \(layout.name).\(field.name)")
                let hiddenFieldAlignment = hiddenAlignment && field.name == "i"
                #expect(field.alignment == (hiddenFieldAlignment ? nil : facts.alignment), "__alignof__ \(layout.name).\(field.name)")
                if let matches = oracle.typeNameMatches[layout.name]?[field.name] {
                    #expect(matches, "\(layout.name).\(field.name) is not of type '\(field.type)'")
                }
                checkedFields += 1
            }
        }
        // Guards against an oracle or a reader that silently checks nothing.
        #expect(checkedFields >= 30)
        #expect(checkedBitfields >= 8)
    }

    @Test(
        "GCC and clang builds read the same, spellings included", .enabled(if: FixtureToolchain.gcc != nil, FixtureToolchain.missingGCC),
        arguments: [2, 4, 5])
    func producersAgree(dwarfVersion: Int) throws {
        let gcc = try Self.layouts("gcc-\(dwarfVersion)")
        let clang = try Self.layouts(dwarfVersion: dwarfVersion)
        // Only what GCC before DWARF 5 cannot say (the `_Alignas` in `struct aligned`) may differ.
        let comparable = { (layouts: [TypeLayout]) in
            Set(layouts.filter { dwarfVersion == 5 || $0.name != "struct aligned" })
        }
        #expect(comparable(gcc) == comparable(clang))
        #expect(gcc.count == clang.count)
    }

    @Test("member types are spelled as in C")
    func typeSpellings() throws {
        let layouts = try Self.layouts(dwarfVersion: 5)
        let outer = try #require(layouts.first { $0.name == "struct outer" })
        let types = Dictionary(uniqueKeysWithValues: outer.fields.map { ($0.name, $0.type) })
        // Each spelling is also checked by the compiler (`typeNameMatches`); these pin the form.
        #expect(types["in"] == "struct inner")
        #expect(types["callback"] == "int (*)(int, const char *)")
        #expect(types["name"] == "const char *")
        #expect(types["fixed"] == "char *const")
        #expect(types["matrix"] == "int[2][3]")
        #expect(types["points"] == "point_t[3]")
        #expect(types["next"] == "struct outer *")
        #expect(types["color"] == "enum color")
        let oracle = try Self.oracle.get()
        let checked = oracle.typeNameMatches["struct outer"] ?? [:]
        #expect(checked.count >= 10)
        #expect(checked.values.allSatisfy { $0 })
    }
}

/// Several units describing the same types, and a name with two layouts.
@Suite struct DeduplicationTests {
    static let library: Result<String, any Error> = Result {
        let directory = FixtureToolchain.cSource.deletingLastPathComponent()
        let library = FixtureToolchain.workDirectory.appendingPathComponent("libduplicates.so").path
        try FixtureToolchain.run(
            FixtureToolchain.clang,
            [
                "-g", "-shared", "-fPIC", "-o", library,
                directory.appendingPathComponent("layouts.c").path,
                directory.appendingPathComponent("second.c").path,
                directory.appendingPathComponent("config_b.c").path,
            ])
        return library
    }

    @Test("a type described by several units appears once; one name with two layouts appears twice")
    func duplicates() throws {
        let layouts = try DWARFReader(path: try Self.library.get()).typeLayouts()
        let names = layouts.map(\.name)
        for name in CLayoutTests.expectedMembers.keys {
            #expect(names.filter { $0 == name }.count == 1, "\(name)")
        }
        let configs = layouts.filter { $0.name == "struct config" }
        #expect(configs.count == 2)
        #expect(Set(configs.map(\.size)).count == 2)
        // A type only declared (`struct only_declared;`) has no layout.
        #expect(!names.contains("struct only_declared"))
        #expect(layouts.count == CLayoutTests.expectedMembers.count + 2)
    }

    @Test("the language filter separates C from Swift and C++")
    func languageFilter() throws {
        let path = try Self.library.get()
        #expect(try DWARFReader(path: path).typeLayouts(languages: .swift).isEmpty)
        #expect(try DWARFReader(path: path).typeLayouts(languages: .cPlusPlus).isEmpty)
        #expect(try DWARFReader(path: path).typeLayouts(languages: .cFamily) == DWARFReader(path: path).typeLayouts())
        let document = try DWARFReader(path: path).layoutDocument()
        #expect(document.image.path == path)
        #expect(document.image.hasDebugInfo == true)
        #if arch(x86_64)
        #expect(document.image.architecture == "x86_64")
        #elseif arch(arm64)
        #expect(document.image.architecture == "aarch64")
        #endif
        #expect(document.types == (try DWARFReader(path: path).typeLayouts()))
    }
}

/// Layouts nobody here wrote: glibc's and Linux's own headers (`Fixtures/C/system.c`), against
/// the compiler's numbers for the same headers.
@Suite struct SystemHeaderTests {
    static let layouts: Result<[TypeLayout], any Error> = Result {
        let object = FixtureToolchain.workDirectory.appendingPathComponent("system.o").path
        let source = FixtureToolchain.cSource.deletingLastPathComponent().appendingPathComponent("system.c")
        try FixtureToolchain.run(FixtureToolchain.clang, ["-g", "-c", source.path, "-o", object])
        return try DWARFReader(path: object).typeLayouts()
    }

    @Test("every system type's size, alignment, offsets, bitfields and member types match the compiler")
    func systemTypes() throws {
        let layouts = try Self.layouts.get()
        let names = Set(layouts.map(\.name))
        for name in [
            "struct stat", "struct tm", "struct sigaction", "siginfo_t", "struct ip", "struct tcphdr",
            "pthread_mutex_t", "struct timex", "struct _IO_FILE", "struct sockaddr_in6", "struct msghdr",
        ] {
            #expect(names.contains(name), "\(name) not read")
        }
        let program = CLayoutOracle.program(for: layouts, header: "system.c")
        let oracle = try CLayoutOracle(output: try FixtureToolchain.compileAndRun(cSource: program, named: "system-oracle"))
        var checked = 0
        for layout in layouts {
            let truth = try #require(oracle.types[layout.name], "\(layout.name)")
            #expect(layout.size == truth.size, "sizeof(\(layout.name))")
            #expect(layout.alignment == truth.alignment, "_Alignof(\(layout.name))")
            for field in layout.fields {
                if let width = field.bitWidth {
                    let bits = try #require(oracle.bitfields[layout.name]?[field.name], "\(layout.name).\(field.name)")
                    #expect((field.offset ?? -1) * 8 + (field.bitOffset ?? -1) == bits.firstBit, "\(layout.name).\(field.name)")
                    #expect(width == bits.width, "\(layout.name).\(field.name)")
                } else {
                    let facts = try #require(oracle.fields[layout.name]?[field.name], "\(layout.name).\(field.name)")
                    #expect(field.offset == facts.offset, "offsetof(\(layout.name), \(field.name))")
                    #expect(field.size == facts.size, "sizeof \(layout.name).\(field.name)")
                    #expect(field.alignment == facts.alignment, "__alignof__ \(layout.name).\(field.name)")
                    if let matches = oracle.typeNameMatches[layout.name]?[field.name] {
                        #expect(matches, "\(layout.name).\(field.name) is not '\(field.type)'")
                    }
                }
                checked += 1
            }
        }
        #expect(layouts.count >= 25)
        #expect(checked >= 200)
    }
}
