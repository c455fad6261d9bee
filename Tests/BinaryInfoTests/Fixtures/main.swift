// Entry point of the fixture executable: prints the oracle.
print(fixtureOracleJSON())
