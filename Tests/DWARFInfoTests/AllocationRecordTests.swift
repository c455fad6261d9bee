import Testing

@testable import DWARFInfo

/// libdwarf's allocation record must not change while a session holds allocations (one made
/// with it on and released with it off would be freed twice): once a reading has begun,
/// `forgoAllocationRecord()` does nothing and says so.
@Suite struct AllocationRecordTests {
    @Test("the record stays as it is once a reading has begun")
    func unchangedAfterAReading() throws {
        let reader = try DWARFReader(path: try UnitByUnitTests.fixture("c-dwarf4"))
        #expect(!(try reader.typeLayouts()).isEmpty)
        #expect(DWARFReader.forgoAllocationRecord() == false)
        #expect(!(try reader.typeLayouts()).isEmpty)
    }
}
