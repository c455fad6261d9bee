import Testing

/// `ReleaseFixture/Existentials/main.swift`, built with `-O -swift-version 5` against this build's
/// TypeInfo and TypeLayout objects and run once.
enum ExistentialReleaseFixture {
    static let output = ReleaseFixture.build(
        source: "Existentials/main.swift", modules: ["TypeInfo", "TypeLayout"], flags: ["-O", "-swift-version", "5"])

    /// The single value printed for `name`.
    static func value(_ name: String) throws -> String {
        try #require(try output.get()[name]?.first, "the existential release fixture printed no \(name)")
    }
}

/// Issue 23, section 1, in an optimized Swift 5 mode client: instances held in existentials are
/// opened to their dynamic type. Each value pairs TypeInfo's result with the fixture's own
/// reading through Swift (see the fixture).
@Suite("issue 23: existential instances in an optimized (-O) Swift 5 mode build")
struct ExistentialReleaseTests {
    @Test func structsKeepValueSemantics() throws {
        #expect(try ExistentialReleaseFixture.value("set.any") == "John Wes")
        #expect(try ExistentialReleaseFixture.value("get.anyP") == "Kim Kim Kim")
        #expect(try ExistentialReleaseFixture.value("set.anyP") == "Jo Wes")
        #expect(try ExistentialReleaseFixture.value("set.composition") == "Max 40")
    }

    @Test func withStorageOpensAnyWithoutRecursing() throws {
        #expect(try ExistentialReleaseFixture.value("storage.of.any") == "Jim Wes")
        #expect(try ExistentialReleaseFixture.value("storage.reading.any") == "Lu")
        #expect(try ExistentialReleaseFixture.value("nested") == "true Deep 1 Wes")
    }

    @Test func classesAreWrittenInPlace() throws {
        #expect(try ExistentialReleaseFixture.value("class") == "Bo Cy true true")
    }

    @Test func errorExistentials() throws {
        // A class instance in an `any Error` is written in place; a struct is replaced in the box.
        #expect(try ExistentialReleaseFixture.value("error.box") == "7 5 1")
    }

    @Test func pathsFactoryAndEnums() throws {
        #expect(try ExistentialReleaseFixture.value("paths") == "Path Wes Key")
        #expect(try ExistentialReleaseFixture.value("factory") == "true true")
        #expect(try ExistentialReleaseFixture.value("enum") == "level 9 off true")
    }

    @Test func aWrongDynamicTypeIsNamed() throws {
        #expect(try ExistentialReleaseFixture.value("error") == "error: property 'firstname' belongs to main.Public, not to main.Other")
    }
}
