// The store's fixtures (a scratch directory, a sample credential, the store probe) come with the
// wallet's: the wallet's tests and the end-to-end tests name them through this module.
@_exported import DCWalletStoreTestSupport
