// The `Units` library's second unit: a subclass whose superclass is defined in Animals.swift,
// and a struct holding a type of that file (so this unit describes it too).
public final class Dog: Animal {
    public var tag: Int64 = 0
}

public struct Barn {
    public var pen: Pen
    public var doors: UInt8
}

public var fixtureDog = Dog()
public var fixtureBarn = Barn(pen: fixturePen, doors: 2)
