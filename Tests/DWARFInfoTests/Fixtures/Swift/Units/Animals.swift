// One of three files (three compile units) of the `Units` library: a reading of a few types
// reads only the units whose top-level names can hold them (DWARFReader+Selection.swift).
public class Animal {
    public var legs: Int8 = 4
    public init() {}
}

public struct Pen {
    public struct Gate {
        public var width: Int16
        public var open: Bool
    }
    public var gate: Gate
    public var area: Double
}

public enum Diet {
    case grass
    case meat(Int32)
}

// Globals make the compiler describe each type in this unit.
public var fixturePen = Pen(gate: .init(width: 1, open: true), area: 2)
public var fixtureDiet = Diet.meat(1)
public var fixtureAnimal = Animal()
