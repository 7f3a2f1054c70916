package io.infergate.gateway.ledger;

import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import io.infergate.gateway.support.PostgresServer;

/** {@link LedgerStoreContract} on a real PostgreSQL. */
class PostgresLedgerStoreTests extends LedgerStoreContract {

	static PostgresServer postgres;

	static final AtomicInteger databases = new AtomicInteger();

	@BeforeAll
	static void start() {
		postgres = new PostgresServer();
	}

	@AfterAll
	static void stop() {
		postgres.close();
	}

	@Override
	DataSource emptyDatabase() {
		String url = postgres.createDatabase("ledger_" + databases.incrementAndGet());
		return new SimpleDriverDataSource(new org.postgresql.Driver(), url, PostgresServer.USER,
				PostgresServer.PASSWORD);
	}
}
