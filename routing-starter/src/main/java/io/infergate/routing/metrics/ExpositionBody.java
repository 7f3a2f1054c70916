package io.infergate.routing.metrics;

/**
 * A response body read into one byte array, lent by the scraper and handed back with the body, so an endpoint's
 * scrapes reuse one buffer; a scrape that fails never hands it back.
 *
 * @param bytes the buffer holding the body, possibly longer than it
 * @param length the body's length in bytes
 */
record ExpositionBody(byte[] bytes, int length) {
}
