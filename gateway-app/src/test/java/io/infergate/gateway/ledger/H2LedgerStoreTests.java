package io.infergate.gateway.ledger;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/** {@link LedgerStoreContract} on the embedded database the gateway uses by default. */
class H2LedgerStoreTests extends LedgerStoreContract {

	@Override
	DataSource emptyDatabase() {
		return new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:ledger-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
	}
}
