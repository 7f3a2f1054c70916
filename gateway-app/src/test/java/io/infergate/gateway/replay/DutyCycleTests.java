package io.infergate.gateway.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.assertj.core.data.Offset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay process's pacing: its share of a core, and waiting while the machine is busy with others. */
class DutyCycleTests {

	@TempDir
	Path work;

	/** A {@code /proc/stat} of two processors whose busy and idle ticks are given. */
	private void stat(Path file, long busy, long idle) throws IOException {
		Files.writeString(file, "cpu  " + busy + " 0 0 " + idle + " 0 0 0 0 0 0\n" + "cpu0 0 0 0 0 0 0 0 0 0 0\n"
				+ "cpu1 0 0 0 0 0 0 0 0 0 0\nintr 1 2 3\n");
	}

	@Test
	void othersBusyIsTheMachinesBusyShareLessThisProcesss() throws IOException {
		Path file = work.resolve("stat");
		AtomicLong own = new AtomicLong();
		MachineLoad load = new MachineLoad(file, own::get);
		stat(file, 1000, 1000);
		assertThat(load.othersBusy()).as("nothing to compare with yet").isNaN();

		// 300 of 400 ticks busy, none of them this process's
		stat(file, 1300, 1100);
		assertThat(load.othersBusy()).isCloseTo(0.75, Offset.offset(0.001));

		// 100 of 400 busy: the machine is idle enough
		stat(file, 1400, 1400);
		assertThat(load.othersBusy()).isCloseTo(0.25, Offset.offset(0.001));
	}

	@Test
	void aMachineThatCannotBeReadIsNotKnown() {
		MachineLoad load = new MachineLoad(work.resolve("absent"), () -> 0);
		assertThat(load.othersBusy()).isNaN();
		assertThat(load.othersBusy()).isNaN();
	}

	@Test
	void waitsWhileOthersKeepTheMachineBusyAndGoesOnOnceTheyDoNot() throws InterruptedException {
		Iterator<Double> readings = List.of(0.9, 0.8, 0.6, 0.2).iterator();
		DutyCycle dutyCycle = new DutyCycle(1.0, 0.5, readings::next, () -> 0, () -> {
		});
		Thread.sleep(DutyCycle.LOAD_MILLIS + DutyCycle.SLICE_MILLIS);
		long start = System.nanoTime();
		dutyCycle.pace();
		long waitedMillis = (System.nanoTime() - start) / 1_000_000;
		assertThat(waitedMillis).as("a step per busy reading").isGreaterThanOrEqualTo(3 * DutyCycle.LOAD_MILLIS);
		assertThat(readings.hasNext()).isFalse();

		// the next check is a step later: until then it does not ask
		dutyCycle.pace();
	}

	@Test
	void aMachineThatIsNotKnownIsNotWaitedFor() throws InterruptedException {
		DutyCycle dutyCycle = new DutyCycle(1.0, 0.0, () -> Double.NaN, () -> 0, () -> {
		});
		Thread.sleep(DutyCycle.LOAD_MILLIS + DutyCycle.SLICE_MILLIS);
		long start = System.nanoTime();
		dutyCycle.pace();
		assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(DutyCycle.LOAD_MILLIS);
	}

	@Test
	void yieldingAboveOneNeverAsksAndAShareOfOneNeverSleeps() {
		DutyCycle dutyCycle = new DutyCycle(1.0, 1.0, () -> 1.0, () -> 0, () -> {
		});
		long start = System.nanoTime();
		for (int i = 0; i < 100; i++) {
			dutyCycle.pace();
		}
		assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(DutyCycle.LOAD_MILLIS);
	}

	@Test
	void keepsToItsShareOfOneCore() throws InterruptedException {
		AtomicLong cpu = new AtomicLong();
		DutyCycle dutyCycle = new DutyCycle(0.25, 1.0, () -> 1.0, cpu::get, () -> {
		});
		dutyCycle.pace();
		// a slice of work that used all its wall time as CPU time
		long sliceStart = System.nanoTime();
		Thread.sleep(DutyCycle.SLICE_MILLIS * 2);
		cpu.addAndGet(System.nanoTime() - sliceStart);
		long start = System.nanoTime();
		dutyCycle.pace();
		long sleptMillis = (System.nanoTime() - start) / 1_000_000;
		assertThat(sleptMillis).as("three times the work's time, for a quarter share")
			.isGreaterThanOrEqualTo(3 * 2 * DutyCycle.SLICE_MILLIS - 5);
	}
}
