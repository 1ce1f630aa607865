// Placeholder replaced below (analysis scale child).
process.stdout.write('{}\n');
