// The `Units` library's third unit: types no other unit refers to.
public struct Rake {
    public var teeth: Int32
    public var handle: Double
}

public enum Season {
    case spring, summer, autumn, winter
}

public var fixtureRake = Rake(teeth: 12, handle: 1.5)
public var fixtureSeason = Season.autumn
