package io.infergate.routing.replica;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.infergate.routing.endpoint.EndpointId;
import io.infergate.routing.prefix.PrefixHashes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PeerDispatchTests {

	private final PeerDispatch dispatch = new PeerDispatch(-7L, "llama", new EndpointId("10.0.0.5", 65_000),
			PrefixHashes.of(1L, Long.MIN_VALUE, -2L));

	@Test
	void encodesTheFieldsInTheDocumentedLayout() {
		byte[] bytes = dispatch.encode();

		// 1 + 8 + (2 + 5) + (2 + 8) + 2 + 2 + 3·8
		assertThat(bytes).hasSize(54);
		assertThat(bytes[0]).isEqualTo((byte) 1);
		assertThat(Arrays.copyOfRange(bytes, 1, 9)).containsOnly((byte) 0xFF, (byte) 0xF9);
		assertThat(new String(bytes, 11, 5)).isEqualTo("llama");
		assertThat(new String(bytes, 18, 8)).isEqualTo("10.0.0.5");
		assertThat(Arrays.copyOfRange(bytes, 26, 28)).containsExactly((byte) 0xFD, (byte) 0xE8);
		assertThat(Arrays.copyOfRange(bytes, 28, 30)).containsExactly((byte) 0, (byte) 3);
	}

	@Test
	void roundTrips() {
		PeerDispatch decoded = PeerDispatch.decode(dispatch.encode());

		assertThat(decoded.replica()).isEqualTo(-7L);
		assertThat(decoded.pool()).isEqualTo("llama");
		assertThat(decoded.endpoint()).isEqualTo(new EndpointId("10.0.0.5", 65_000));
		assertThat(decoded.hashes().blockCount()).isEqualTo(3);
		assertThat(new long[] { decoded.hashes().hash(0), decoded.hashes().hash(1), decoded.hashes().hash(2) })
			.containsExactly(1L, Long.MIN_VALUE, -2L);
	}

	@Test
	void rejectsTruncatedOrPaddedBytesAnotherVersionAndAZeroHash() {
		byte[] bytes = dispatch.encode();
		byte[] otherVersion = bytes.clone();
		otherVersion[0] = 2;
		byte[] zeroHash = bytes.clone();
		Arrays.fill(zeroHash, bytes.length - 8, bytes.length, (byte) 0);

		assertThatIllegalArgumentException().isThrownBy(() -> PeerDispatch.decode(Arrays.copyOf(bytes, 40)))
			.withMessageContaining("expected 3 block hashes");
		assertThatIllegalArgumentException().isThrownBy(() -> PeerDispatch.decode(Arrays.copyOf(bytes, 20)))
			.withMessageContaining("truncated");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PeerDispatch.decode(Arrays.copyOf(bytes, bytes.length + 1)));
		assertThatIllegalArgumentException().isThrownBy(() -> PeerDispatch.decode(otherVersion))
			.withMessage("unknown peer dispatch version 2");
		assertThatIllegalArgumentException().isThrownBy(() -> PeerDispatch.decode(zeroHash))
			.withMessageContaining("must not be 0");
		assertThatIllegalArgumentException().isThrownBy(() -> PeerDispatch.decode(new byte[0]));
	}
}
