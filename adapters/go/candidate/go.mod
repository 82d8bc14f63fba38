module responses-oracle/adapters/go/candidate

go 1.26.0
